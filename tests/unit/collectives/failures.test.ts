import { afterEach, describe, expect, it } from 'vitest';
import { startWorld, type TestWorld } from './harness/world-harness.ts';
import type { RawCall } from './harness/scenarios.ts';

type Timed = { ok: boolean; error?: string; ms: number };
let w: TestWorld | null = null;
afterEach(async () => {
  await w?.close();
  w = null;
});

const f32 = (n: number) => new Float32Array(n);

describe('mismatched collectives fail loudly on every rank', () => {
  it('different kinds at the same call name both ranks and both calls', async () => {
    w = await startWorld(4);
    const out = await w.values<Timed>('timedCalls', (r: number): RawCall[] => [
      r === 3
        ? { kind: 'broadcast', input: f32(8), src: 0 }
        : { kind: 'allReduce', input: f32(8), op: 'sum' },
    ]);
    for (const o of out) {
      expect(o.ok).toBe(false);
      expect(o.error).toMatch(/Mismatched collectives on the world group at call #0/);
      expect(o.error).toMatch(/rank 3/);
      expect(o.error).toMatch(/broadcast\(8 float32, src=0\)/);
      expect(o.error).toMatch(/allReduce\(op=sum, 8 float32, two-shot\)/);
      expect(o.ms).toBeLessThan(3000);
    }
  });

  it('different sizes', async () => {
    w = await startWorld(3);
    const out = await w.values<Timed>('timedCalls', (r: number): RawCall[] => [
      { kind: 'allReduce', input: f32(r === 1 ? 10 : 12), algorithm: 'ring' },
    ]);
    for (const o of out) {
      expect(o.error).toMatch(/they differ in size/);
      expect(o.error).toMatch(/10 float32/);
      expect(o.error).toMatch(/12 float32/);
    }
  });

  it('different dtypes', async () => {
    w = await startWorld(2);
    const out = await w.values<Timed>('timedCalls', (r: number): RawCall[] => [
      { kind: 'allGather', input: r === 0 ? new Int32Array(4) : f32(4) },
    ]);
    for (const o of out) expect(o.error).toMatch(/differ in dtype/);
  });

  it('different groups (calls in different orders) end as a named deadlock, not a hang', async () => {
    w = await startWorld(3);
    const pair: RawCall = { kind: 'allReduce', input: f32(4), group: [0, 1] };
    const all: RawCall = { kind: 'allReduce', input: f32(4) };
    const out = await w.values<Timed>('timedCalls', (r: number): RawCall[] =>
      r === 0 ? [pair, all] : r === 1 ? [all, pair] : [all],
    );
    for (const o of out) {
      expect(o.ok).toBe(false);
      expect(o.error).toMatch(/Deadlock: rank [01] is in allReduce/);
      expect(o.error).toMatch(/group \[0, 1\]/);
      expect(o.ms).toBeLessThan(3000);
    }
  });
});

describe('a rank that fails or never arrives', () => {
  it('abort (a rank threw) wakes every waiter with the reason', async () => {
    w = await startWorld(4);
    const out = await w.values<string | { error: string; ms: number }>('abortWhileWaiting', {
      thrower: 2,
      reason: 'rank 2 threw: TypeError: x is undefined',
    });
    expect(out[2]).toBe('aborted');
    for (const r of [0, 1, 3]) {
      const o = out[r] as { error: string; ms: number };
      expect(o.error).toBe('rank 2 threw: TypeError: x is undefined');
      expect(o.ms).toBeLessThan(2500);
    }
    // The world stays poisoned: the next call fails at once with the same reason.
    const again = await w.values<Timed>('timedCalls', [{ kind: 'barrier' }]);
    for (const o of again) expect(o.error).toBe('rank 2 threw: TypeError: x is undefined');
  });

  it('a rank whose input cannot be read fails the call on every rank at once, naming it', async () => {
    w = await startWorld(3);
    const out = await w.values<Timed>('failingInput', { failing: 1 });
    expect(out[1]!.error).toBe('device lost while reading the tensor');
    for (const r of [0, 2]) {
      expect(out[r]!.error).toBe(
        'rank 1 failed in allReduce (call #0 on the world group): device lost while reading the tensor',
      );
      expect(out[r]!.ms).toBeLessThan(2500);
    }
  });

  it('a rank whose program ends without the call: the others fail at once, naming it as exited and its last call (issue 34, item 7)', async () => {
    w = await startWorld(3);
    await w.values('calls', [{ kind: 'barrier' }]);
    const out = await w.values<Timed>('timedCalls', (r: number): RawCall[] =>
      r === 2 ? [] : [{ kind: 'allReduce', input: f32(16), op: 'avg' }],
    );
    for (const r of [0, 1]) {
      const o = out[r]!;
      expect(o.ok).toBe(false);
      expect(o.error).toMatch(
        /Rank 2 has exited \(its program ended\) while rank [01] waits for it in allReduce\(op=avg, 16 float32, two-shot\) on the world group \(call #1\)/,
      );
      expect(o.error).toMatch(
        /rank 2 last called barrier\(\) on the world group \(call #0\), which it finished, and its program has exited/,
      );
      expect(o.ms).toBeLessThan(3000); // not the 5 s watchdog: an exited rank is known at once
    }
  });

  it('a late recv: the sender is not blocked; a peer that exited without the call is named at once', async () => {
    w = await startWorld(2, { watchdogMs: 800 });
    const out = await w.run<Timed>('p2pStream', { length: 4, count: 1 });
    expect(out.every((o) => o.ok)).toBe(true);
    const missing = await w.values<{ threw: boolean } | Timed>(
      'timedCalls',
      (r: number): RawCall[] => (r === 0 ? [{ kind: 'barrier' }] : []),
    );
    expect((missing[0] as Timed).error).toMatch(
      /Rank 1 has exited \(its program ended\) while rank 0 waits for it in barrier\(\)/,
    );
  });
});

describe('a peer busy computing is alive, not stuck (issue 19, item 3)', () => {
  it('a rank computing (tfjs ops) 3× the watchdog between collectives does not fail its peers', async () => {
    w = await startWorld(3, { watchdogMs: 800, withTensors: true });
    const calls: RawCall[] = [
      { kind: 'allReduce', input: new Float32Array([1, 2]) },
      { kind: 'barrier' },
    ];
    const out = await w.values<Timed & { values?: unknown[] }>('busyThenCalls', {
      busy: 1,
      ms: 2400,
      calls,
    });
    for (const o of out) expect(o, JSON.stringify(o)).toMatchObject({ ok: true });
    expect(Array.from(out[0]!.values![0] as Float32Array)).toEqual([3, 6]);
    expect(out[0]!.ms).toBeGreaterThan(2000);
  });

  it('a rank awaiting a slow read of its own device (WebGPU) 3× the watchdog does not fail its peers', async () => {
    w = await startWorld(2, { watchdogMs: 800, withTensors: true });
    const out = await w.values<Timed & { values?: unknown[] }>('busyThenCalls', {
      busy: 1,
      ms: 2400,
      awaitDevice: true,
      calls: [{ kind: 'allReduce', input: new Float32Array([1, 2]) }],
    });
    for (const o of out) expect(o, JSON.stringify(o)).toMatchObject({ ok: true });
    expect(Array.from(out[0]!.values![0] as Float32Array)).toEqual([2, 4]);
    expect(out[0]!.ms).toBeGreaterThan(2000);
  });

  it('a recv from a sender that computes 3× the watchdog first completes', async () => {
    w = await startWorld(2, { watchdogMs: 800, withTensors: true });
    const out = await w.values<Timed>('busyThenCalls', { busy: 0, ms: 2400, calls: [], p2p: true });
    for (const o of out) expect(o, JSON.stringify(o)).toMatchObject({ ok: true });
  });

  it('a rank awaiting a timer (its event loop answers) 3× the watchdog does not fail its peers (issue 34, item 7)', async () => {
    w = await startWorld(3, { watchdogMs: 800 });
    const out = await w.values<Timed>('busyThenCalls', {
      busy: 1,
      ms: 2400,
      await: true,
      calls: [{ kind: 'barrier' }],
    });
    for (const o of out) expect(o, JSON.stringify(o)).toMatchObject({ ok: true });
    expect(out[0]!.ms).toBeGreaterThan(2000);
  });
});

describe('liveness in virtual time (issue 34, item 7)', () => {
  it("a rank awaiting a timer over 2× the watchdog is 'waiting', not killed, and the virtual result ignores how long it took", async () => {
    // A 0.8 s watchdog stands in for the 5 s default; the virtual collective timeout stays 600 virtual seconds.
    w = await startWorld(2, {
      watchdogMs: 800,
      simulation: { preset: 'h100-ndr', nodes: 1, gpusPerNode: 2 },
    });
    type Out = { values: number[]; virtualSeconds: number; ms: number; notices: string[] };
    const prompt = await w.values<Out>('awaitThenAllReduceVirtual', { late: 1, ms: 0 });
    const late = await w.values<Out>('awaitThenAllReduceVirtual', { late: 1, ms: 1800 });
    // 64 × 64 ones squared: each element 64, summed 262,144 per rank, two ranks.
    for (const o of [...prompt, ...late]) expect(o.values).toEqual([524_288]);
    expect(late[0]!.ms).toBeGreaterThan(1600);
    // Rank 0 said once that its peer is waiting (its event loop answers), and went on waiting.
    const said = late[0]!.notices.filter((n) => /which is waiting outside any collective/.test(n));
    expect(said, late[0]!.notices.join('\n')).toHaveLength(1);
    expect(said[0]).toMatch(
      /^rank 0 has waited \d+\.\d s in allReduce.* for rank 1, .*Still waiting/,
    );
    expect(late[0]!.notices.join('\n')).not.toMatch(/computing|endless loop|busy/);
    // Virtual time: 2.4 s of this machine's time spent awaiting a timer moves no rank's clock, so both runs
    // end at the same virtual instant after their own start (this machine's speed is not in the result).
    const elapsed = (o: Out[], before: Out[] | null) =>
      o.map((r, i) => r.virtualSeconds - (before ? before[i]!.virtualSeconds : 0));
    const [lateRun, promptRun] = [elapsed(late, prompt), elapsed(prompt, null)];
    lateRun.forEach((s, r) => expect(s).toBeCloseTo(promptRun[r]!, 12));
    expect(promptRun[0]).toBeGreaterThan(0);
  });
});

describe('errors that name the cause (issue 19, item 13)', () => {
  it('a rank spinning with no tfjs op and no collective ends its waiting peers at the watchdog, named as a loop', async () => {
    w = await startWorld(3, { watchdogMs: 800, withTensors: true });
    const out = await w.values<Timed>('busyThenCalls', {
      busy: 1,
      ms: 4000,
      spin: true,
      calls: [{ kind: 'allReduce', input: new Float32Array([1, 2]) }],
    });
    for (const r of [0, 2]) {
      expect(out[r]!.ok, JSON.stringify(out[r])).toBe(false);
      expect(out[r]!.error).toMatch(
        /Rank 1 looks stuck in an endless loop: its thread has run 0\.8 s without yielding, calling a tfjs op or a collective, while rank \d waits for it in allReduce/,
      );
      // Found within a few watchdog periods, long before the 4 s the loop runs (a run's limit is 60 s).
      expect(out[r]!.ms).toBeLessThan(3000);
    }
  });

  it('a recv from a spinning sender fails the same way', async () => {
    w = await startWorld(2, { watchdogMs: 800, withTensors: true });
    const out = await w.values<Timed>('busyThenCalls', {
      busy: 0,
      ms: 4000,
      spin: true,
      calls: [],
      p2p: true,
    });
    expect(out[1]!.error).toMatch(/Rank 0 looks stuck in an endless loop/);
    expect(out[1]!.ms).toBeLessThan(3000);
  });

  it('a cycle of receives is named as a cycle, well before the watchdog', async () => {
    w = await startWorld(4);
    const out = await w.values<Timed>('recvCycle');
    for (const o of out) {
      expect(o.ok).toBe(false);
      expect(o.ms).toBeLessThan(4000);
    }
    const messages = out.map((o) => o.error!);
    expect(
      messages.some((m) =>
        /Deadlock: ranks (\d, ){3}\d are each blocked in recv from the next .*a cycle of receives/.test(
          m,
        ),
      ),
      messages.join('\n'),
    ).toBe(true);
    expect(messages.join('\n')).toMatch(/rank 0 waits for rank 1|rank 3 waits for rank 0/);
  });

  it('a ring of sends longer than a mailbox is named as a deadlock, and one that fits runs', async () => {
    // 4 KB mailboxes (1,024 ranks get 1 KB): 4,096 floats take four chunks, so no send returns before its recv.
    w = await startWorld(4, { mailboxBytes: 4096 });
    const out = await w.values<Timed>('sendCycle', 4096);
    for (const o of out) {
      expect(o.ok).toBe(false);
      expect(o.ms).toBeLessThan(4000);
    }
    const messages = out.map((o) => o.error!).join('\n');
    expect(messages).toMatch(
      /Deadlock: ranks (\d, ){3}\d are each blocked on the next \(rank \d is in a send to rank \d that waits for it to receive/,
    );
    expect(messages).toMatch(/4,096 bytes at this world size/);
    await w.close();
    w = await startWorld(4, { mailboxBytes: 4096 });
    for (const o of await w.values<Timed>('sendCycle', 1024)) expect(o.ok).toBe(true);
  });
});

describe('bad arguments fail at the call', () => {
  it('raw layer: unknown op and algorithm, roots out of range, groups outside the world, non-members, self-sends', async () => {
    w = await startWorld(3);
    const cases: [string, unknown[], RegExp][] = [
      [
        'allReduce',
        [f32(2), { op: 'mean' }],
        /allReduce: unknown op "mean"; use one of sum, avg, max, min, prod/,
      ],
      ['allReduce', [f32(2), { algorithm: 'tree' }], /allReduce: unknown algorithm "tree"/],
      ['broadcast', [f32(2), { src: 3 }], /broadcast: src must be a rank in 0\.\.2, got 3/],
      ['reduce', [f32(2), { dst: -1 }], /reduce: dst must be a rank in 0\.\.2, got -1/],
      ['gather', [f32(2), { dst: 1.5 }], /gather: dst must be a rank in 0\.\.2, got 1\.5/],
      ['newGroup', [[0, 5]], /newGroup: rank 5 is outside the world \(ranks 0\.\.2\)/],
      ['newGroup', [[]], /newGroup: give a non-empty array of ranks/],
      ['newGroup', [[1, 1]], /newGroup: rank 1 is listed twice/],
      ['send', [f32(2), { dst: 7 }], /send: dst must be a rank in 0\.\.2, got 7/],
      ['recv', [2, 'float32', { src: -2 }], /recv: src must be a rank in 0\.\.2, got -2/],
    ];
    for (const [method, args, re] of cases) {
      const out = await w.values<{ threw: boolean; message: string }>('badCall', { method, args });
      for (const o of out) {
        expect(o.threw, method).toBe(true);
        expect(o.message).toMatch(re);
      }
    }
    const self = await w.values<{ threw: boolean; message: string }>('badCall', (r: number) => ({
      method: 'send',
      args: [f32(1), { dst: r }],
    }));
    self.forEach((o, r) => expect(o.message).toBe(`send: rank ${r} cannot send to itself`));
  });

  it('dist layer: non-tensors, bad dtypes, scatter shapes, recv shapes, foreign groups', async () => {
    w = await startWorld(2, { withTensors: true });
    const t = { tensor: [1, 2], shape: [2] };
    const cases: [string, unknown[], RegExp][] = [
      ['dist.allReduce', [[1, 2]], /allReduce: expected a tf\.Tensor, got object/],
      ['dist.allReduce', [t, { op: 'median' }], /unknown op "median"/],
      ['dist.broadcast', [t, {}], /broadcast: missing option src/],
      ['dist.broadcast', [t], /broadcast: options must be an object with src/],
      ['dist.recv', [[2, -1], { src: 0 }], /recv: shape must be an array of non-negative integers/],
      ['dist.recv', [[2], { src: 1, dtype: 'bool' }], /recv: dtype must be float32 or int32/],
      [
        'dist.allGather',
        [t, { group: { ranks: [0, 1], rank: 0, size: 2 } }],
        /group: pass a group made by dist\.newGroup\(ranks\)/,
      ],
    ];
    for (const [method, args, re] of cases) {
      const out = await w.values<{ threw: boolean; message: string }>('badCall', { method, args });
      expect(out[0]!.threw, method).toBe(true);
      expect(out[0]!.message, method).toMatch(re);
    }
    const scatter = await w.values<{ threw: boolean; message: string }>('badCall', (r: number) =>
      r === 0
        ? { method: 'dist.scatter', args: [{ tensor: [1, 2, 3], shape: [3] }, { src: 0 }] }
        : { method: 'dist.newGroup', args: [[0, 1]] },
    );
    expect(scatter[0]!.message).toBe(
      "scatter: on src the tensor's leading axis must be the group size 2, got shape [3]",
    );
    const member = await w.values<{ threw: boolean; message: string }>('badCall', (r: number) => ({
      method: 'dist.allReduce',
      args: [t, { group: [1 - r] }],
    }));
    member.forEach((o, r) =>
      expect(o.message).toBe(`allReduce: rank ${r} is not a member of group [${1 - r}]`),
    );
  });
});
