import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { runProgram } from '../../../playground/cluster/node.ts';
import type { RunResult } from '../../../playground/contract/protocol.ts';

/** Runs the hostile-rank cluster on its own thread; gives up (and says so) if that thread stops answering. */
function driveHostileCluster(
  options: { code: string; worldSize: number; timeoutMs: number; stopAfterMs?: number },
  patienceMs: number,
) {
  const worker = new Worker(new URL('./hostile/cluster-driver.ts', import.meta.url), {
    workerData: options,
  });
  return new Promise<
    { result: RunResult; ms: number; errors: string[][] } | 'main thread stopped answering'
  >((resolve, reject) => {
    const timer = setTimeout(() => resolve('main thread stopped answering'), patienceMs);
    worker.once('message', (m) => {
      clearTimeout(timer);
      resolve(m);
    });
    worker.once('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
  }).finally(() => worker.terminate());
}

const waitsInBarrier = `import { dist } from 'ranks';\nawait dist.barrier();\nconsole.log('passed the barrier');`;

describe('a rank that writes shared memory cannot freeze the main thread (issue 19, item 1)', () => {
  it('the run still ends, well inside its time limit, when a rank leaves the poison word half-written', async () => {
    const out = await driveHostileCluster(
      { code: waitsInBarrier, worldSize: 3, timeoutMs: 20_000 },
      30_000,
    );
    expect(out).not.toBe('main thread stopped answering');
    if (out === 'main thread stopped answering') return;
    expect(out.result).toMatchObject({ ok: false, reason: 'error' });
    expect(out.ms).toBeLessThan(15_000);
    expect(out.errors[0]).toEqual(['hostile rank wrote the poison word']);
  });

  it('stop() still ends such a run', async () => {
    const code = `while (true) {}`;
    const out = await driveHostileCluster(
      { code, worldSize: 2, timeoutMs: 20_000, stopAfterMs: 1500 },
      30_000,
    );
    expect(out).not.toBe('main thread stopped answering');
    if (out === 'main thread stopped answering') return;
    expect(['stopped', 'error']).toContain(out.result.reason);
    expect(out.ms).toBeLessThan(15_000);
  });
});

/** Every path from `dist` (and a group handle) that leads to shared memory, as a program can walk it. */
const walker = `
const found = [];
const seen = new Set();
function walk(v, path, depth) {
  if (v === null || (typeof v !== 'object' && typeof v !== 'function') || seen.has(v) || depth > 6) return;
  seen.add(v);
  const shared = (typeof SharedArrayBuffer !== 'undefined' && v instanceof SharedArrayBuffer) || v instanceof WebAssembly.Memory
    || (ArrayBuffer.isView(v) && typeof SharedArrayBuffer !== 'undefined' && v.buffer instanceof SharedArrayBuffer);
  if (shared) { found.push(path); return; }
  for (let o = v; o && o !== Object.prototype && o !== Function.prototype; o = Object.getPrototypeOf(o)) {
    for (const k of Reflect.ownKeys(o)) {
      if (k === 'constructor' || typeof k === 'symbol') continue;
      let x;
      try { x = v[k]; } catch { continue; }
      if (x instanceof Promise) x.catch(() => {}); // a getter's rejected promise is not the program's failure
      walk(x, path + '.' + k, depth + 1);
    }
  }
}`;

describe('a rank cannot reach the engine, the shared words or the mailboxes through dist (issue 19, item 1)', () => {
  it('nothing reachable from dist or a group handle is shared memory', async () => {
    const code = `import { dist } from 'ranks';
${walker}
walk(dist, 'dist', 0);
walk(dist.newGroup([0, 1]), 'group', 0);
console.log('shared memory reachable at: ' + (found.join(', ') || 'nowhere'));`;
    const { result, record } = await runProgram({ code, worldSize: 2, backend: 'cpu' });
    expect(result.ok).toBe(true);
    for (const lines of record.logs) expect(lines).toEqual(['shared memory reachable at: nowhere']);
  });

  it("a rank cannot write the header, read another pair's mailbox or bump a peer's progress counter", async () => {
    // The three attacks the issue reports, tried through every handle the old runtime exposed.
    const code = `import * as tf from '@tensorflow/tfjs';
import { dist } from 'ranks';
const engine = (dist as any).collectives?.engine;
const words: Int32Array | undefined = engine?.words ?? engine?.sync?.words;
let tried = 'no way in';
if (dist.rank === 3 && words) {
  tried = 'got the words';
  for (let r = 0; r < 3; r++) Atomics.add(words, engine.progressIndex(0, r), 1); // bump peers' progress
  const mailbox = new Int32Array(words.buffer, 0, 8); // any pair's mailbox lies in the same buffer
  Atomics.store(words, 2, 1); // the header's poison word
  tried += ' ' + mailbox.length;
}
const s = await dist.allReduce(tf.ones([1]));
console.log(tried, Array.from(await s.data()).join(','));`;
    const { result, record } = await runProgram({
      code,
      worldSize: 4,
      backend: 'cpu',
      timeoutMs: 20_000,
    });
    expect(result).toMatchObject({ ok: true, reason: 'finished' });
    for (const lines of record.logs) expect(lines).toEqual(['no way in 4']);
  });

  it('patching Atomics, typed arrays or their globals before a collective captures no shared memory', async () => {
    const code = `import * as tf from '@tensorflow/tfjs';
import { dist } from 'ranks';
const captured: unknown[] = [];
const grab = (x: unknown) => { captured.push(x); };
const attempts: string[] = [];
const attempt = (name: string, f: () => void) => { try { f(); attempts.push(name); } catch { /* refused */ } };
attempt('Atomics.load', () => { const o = Atomics.load; (Atomics as any).load = (a: any, i: number) => (grab(a), o(a, i)); });
attempt('Atomics.store', () => { const o = Atomics.store; (Atomics as any).store = (a: any, i: number, v: number) => (grab(a), o(a, i, v)); });
attempt('Atomics.add', () => { const o = Atomics.add; (Atomics as any).add = (a: any, i: number, v: number) => (grab(a), o(a, i, v)); });
const TA = Object.getPrototypeOf(Int32Array.prototype);
attempt('TypedArray.prototype.set', () => { const o = TA.set; TA.set = function (this: any, s: any, off?: number) { grab(this); grab(s); return o.call(this, s, off); }; });
attempt('TypedArray.prototype.subarray', () => { const o = TA.subarray; TA.subarray = function (this: any, a?: number, b?: number) { grab(this); return o.call(this, a, b); }; });
attempt('Array.prototype.forEach', () => { const o = Array.prototype.forEach; Array.prototype.forEach = function (this: any, f: any, t?: any) { grab(f); return o.call(this, f, t); }; });
attempt('globalThis.Float32Array', () => { const O = Float32Array; (globalThis as any).Float32Array = function (...a: any[]) { const x = new (O as any)(...a); grab(x); return x; }; });
const s = await dist.allReduce(tf.ones([8]));
await dist.broadcast(tf.ones([4]), { src: 0 });
const shared = captured.filter((x: any) => x && (x instanceof SharedArrayBuffer || (ArrayBuffer.isView(x) && (x as any).buffer instanceof SharedArrayBuffer)));
console.log('patched: ' + (attempts.join(', ') || 'nothing') + '; shared views captured: ' + shared.length + '; sum ' + (await s.data())[0]);`;
    const { result, record } = await runProgram({
      code,
      worldSize: 2,
      backend: 'cpu',
      timeoutMs: 20_000,
    });
    expect(result.ok, JSON.stringify(record.ranks.map((r) => r.lines))).toBe(true);
    for (const lines of record.logs)
      expect(lines).toEqual(['patched: nothing; shared views captured: 0; sum 2']);
  });
});

describe('a rank cannot reach the world memory through tfjs either (issue 19, item 1)', () => {
  it('no shared buffer is reachable from tf.backend(), tf.engine() or a result tensor, and scribbling over any would spoil only its own results', async () => {
    // A result's storage is public tfjs API away (tf.backend().data.get(id).values): it must not be the world's memory.
    const code = `import * as tf from '@tensorflow/tfjs';
import { dist } from 'ranks';
${walker}
const first = await dist.allReduce(tf.ones([1024]).mul(dist.rank + 1));
const b: any = tf.backend();
walk(b, 'backend', 0);
walk(tf.engine(), 'engine', 0);
const values = b.data.get((first as any).dataId).values;
const buffers = new Set<SharedArrayBuffer>();
const grab = (x: any) => {
  if (x instanceof WebAssembly.Memory) x = x.buffer;
  if (ArrayBuffer.isView(x)) x = x.buffer;
  if (typeof SharedArrayBuffer !== 'undefined' && x instanceof SharedArrayBuffer) buffers.add(x);
};
grab(values);
const reach = (path: string) => path.split('.').slice(1).reduce((o: any, k) => o?.[k], path.startsWith('backend') ? b : tf.engine());
for (const path of found) grab(reach(path));
if (dist.rank === 3) for (const sab of buffers) new Int32Array(sab).fill(0x7f7fabcd);
const sums: number[] = [];
for (let i = 1; i <= 3; i++) {
  const s = await dist.allReduce(tf.fill([1024], i));
  const d = await s.data();
  sums.push(d.every((x) => x === d[0]) ? d[0]! : NaN);
}
console.log((dist.rank === 3 ? 'scribbled over ' + buffers.size + ' shared buffer(s); ' : '') + 'sums ' + sums.join(','));`;
    const { result, record } = await runProgram({
      code,
      worldSize: 4,
      backend: 'cpu',
      timeoutMs: 20_000,
    });
    expect(result, JSON.stringify(record.ranks.map((r) => r.lines))).toMatchObject({
      ok: true,
      reason: 'finished',
    });
    for (const r of [0, 1, 2]) expect(record.logs[r]).toEqual(['sums 4,8,12']);
    // Results are private arrays (dist copies them out of the world memory), so rank 3 finds no shared buffer at
    // all; a result stored in shared memory would show up here, and its scribble would have to spoil nothing else.
    expect(record.logs[3]).toEqual(['scribbled over 0 shared buffer(s); sums 4,8,12']);
  });
});

describe('a rank speaks only for itself (issue 19, item 11)', () => {
  it("wrapping MessagePort.prototype.postMessage cannot post another rank's log or exit", async () => {
    const code = `import { dist } from 'ranks';
if (dist.rank === 0) {
  const post = MessagePort.prototype.postMessage;
  try {
    MessagePort.prototype.postMessage = function (this: MessagePort, m: any, t?: any) {
      post.call(this, { type: 'log', rank: 1, level: 'log', text: 'CHECK PASS forged for rank 1', time: 1 });
      post.call(this, { type: 'exit', rank: 1, ok: true, time: 1 });
      return post.call(this, m, t);
    } as any;
  } catch { /* refused */ }
  console.log('rank 0 done');
} else {
  while (true) {}
}`;
    const { result, record } = await runProgram({
      code,
      worldSize: 2,
      backend: 'cpu',
      timeoutMs: 4000,
    });
    expect(result.ok).toBe(false);
    expect(result.reason).toBe('timeout');
    expect(record.logs[1]).toEqual([]);
    expect(record.ranks[1]!.exit).toBeNull();
  });
});
