import * as tf from '@tensorflow/tfjs';
import { describe, expect, it } from 'vitest';
import { MemoryLedger } from '../../../playground/parallel/memory-ledger.ts';

describe('MemoryLedger', () => {
  it('counts the bytes of the tensors held, by category, and the peak', () => {
    const ledger = new MemoryLedger();
    const before = tf.memory().numBytes;
    const p = tf.zeros([1000]);
    const g = tf.zeros([250, 2]);
    ledger.hold('params', p);
    ledger.hold('grads', g);
    expect(ledger.snapshot().current.params).toBe(4000);
    expect(ledger.snapshot().total).toBe(tf.memory().numBytes - before);
    ledger.free(g);
    const snap = ledger.snapshot();
    expect(snap.current.grads).toBe(0);
    expect(snap.peak).toBe(6000);
    expect(snap.peakByCategory.grads).toBe(2000);
    ledger.resetPeak();
    expect(ledger.snapshot().peak).toBe(4000);
    ledger.free(p);
  });

  it('refuses to count one tensor twice', () => {
    const ledger = new MemoryLedger();
    const t = tf.ones([3]);
    ledger.hold('params', t);
    expect(() => ledger.hold('grads', t)).toThrow(/already held/);
    ledger.free(t);
  });
});
