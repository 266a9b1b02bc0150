// What each rank does in a test: plain functions of (context, args), run on every rank of a TestWorld.
import type { RankCollectives } from '../../../../playground/collectives/rank-collectives.ts';
import type { Dist } from '../../../../playground/collectives/dist-api.ts';
import type { TraceEvent } from '../../../../playground/contract/protocol.ts';
import type { AllReduceAlgorithm, ReduceOp } from '../../../../playground/collectives/dist-api.ts';
import type { Payload } from '../../../../playground/collectives/typed-views.ts';
import type { TensorOutputPool } from '../../../../playground/collectives/tensor-output-pool.ts';
import { poolProgram } from './pool-program.ts';

export interface ScenarioContext {
  rank: number;
  worldSize: number;
  raw: RankCollectives;
  dist: Dist | null;
  /** The pool behind dist's results (tensor worlds only), for its counters. */
  outputs?: TensorOutputPool;
  traces: TraceEvent[];
  /** Notices this rank's waits reported during the scenario (a peer busy or waiting, not failed). */
  notices: string[];
}

export type RawCall =
  | {
      kind: 'allReduce';
      input: Payload;
      op?: ReduceOp;
      algorithm?: AllReduceAlgorithm;
      group?: number[];
      async?: boolean;
    }
  | { kind: 'reduceScatter'; input: Payload; op?: ReduceOp; group?: number[] }
  | { kind: 'allGather'; input: Payload; group?: number[] }
  | { kind: 'broadcast'; input: Payload; src: number; group?: number[] }
  | { kind: 'reduce'; input: Payload; dst: number; op?: ReduceOp; group?: number[] }
  | {
      kind: 'scatter';
      input: Payload | null;
      sliceLength: number;
      dtype: 'float32' | 'int32';
      src: number;
      group?: number[];
    }
  | { kind: 'gather'; input: Payload; dst: number; group?: number[] }
  | { kind: 'barrier'; group?: number[] }
  | { kind: 'skip' };

function issue(c: RankCollectives, call: RawCall): Promise<unknown> {
  const group = 'group' in call && call.group ? c.newGroup(call.group) : undefined;
  switch (call.kind) {
    case 'allReduce':
      return c.allReduce(call.input, {
        op: call.op,
        algorithm: call.algorithm,
        group,
        async: call.async,
      });
    case 'reduceScatter':
      return c.reduceScatter(call.input, { op: call.op, group });
    case 'allGather':
      return c.allGather(call.input, { group });
    case 'broadcast':
      return c.broadcast(call.input, { src: call.src, group });
    case 'reduce':
      return c.reduce(call.input, { dst: call.dst, op: call.op, group });
    case 'scatter':
      return c.scatter(call.input, call.sliceLength, call.dtype, { src: call.src, group });
    case 'gather':
      return c.gather(call.input, { dst: call.dst, group });
    case 'barrier':
      return c.barrier({ group });
    case 'skip':
      return Promise.resolve(null);
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export const scenarios = {
  poolProgram,
  /** Issues every call at once (they queue in order), returns every result. */
  async calls(ctx: ScenarioContext, calls: RawCall[]) {
    return Promise.all(calls.map((call) => issue(ctx.raw, call)));
  },

  /** Awaits each call before the next (blocking waits), returns every result. */
  async callsInTurn(ctx: ScenarioContext, calls: RawCall[]) {
    const out = [];
    for (const call of calls) out.push(await issue(ctx.raw, call));
    return out;
  },

  /** Calls made, then the bytes/call statistics and trace events they produced. */
  async callsWithStats(ctx: ScenarioContext, calls: RawCall[]) {
    const before = ctx.raw.commStats();
    const values = await Promise.all(calls.map((call) => issue(ctx.raw, call)));
    return { values, before, stats: ctx.raw.commStats(), traces: [...ctx.traces] };
  },

  /** Sleeps `delays[rank]` ms first: a late rank. */
  async lateCalls(ctx: ScenarioContext, a: { delay: number; calls: RawCall[] }) {
    await sleep(a.delay);
    return Promise.all(a.calls.map((call) => issue(ctx.raw, call)));
  },

  /** A ring all-reduce built from send/recv, as the exercises ask. */
  async ringFromSendRecv(ctx: ScenarioContext, input: Float32Array) {
    const { raw: c, rank, worldSize: n } = ctx;
    const next = (rank + 1) % n;
    const prev = (rank + n - 1) % n;
    const chunk = Math.ceil(input.length / n);
    const data = input.slice();
    const piece = (k: number) =>
      [
        (((k % n) + n) % n) * chunk,
        Math.min(data.length, ((((k % n) + n) % n) + 1) * chunk),
      ] as const;
    for (let s = 0; s < n - 1; s++) {
      const [a, b] = piece(rank - s);
      const [ra, rb] = piece(rank - s - 1);
      const sent = c.send(data.slice(a, b), { dst: next });
      const got = await c.recv(Math.max(0, rb - ra), 'float32', { src: prev });
      for (let i = 0; i < got.length; i++) data[ra + i]! += got[i]!;
      await sent;
    }
    for (let s = 0; s < n - 1; s++) {
      const [a, b] = piece(rank + 1 - s);
      const [ra, rb] = piece(rank - s);
      const sent = c.send(data.slice(a, b), { dst: next });
      const got = await c.recv(Math.max(0, rb - ra), 'float32', { src: prev });
      data.set(got, ra);
      await sent;
    }
    return data;
  },

  /** Sends `count` messages of `length` to the next rank and receives as many from the previous. */
  async p2pStream(ctx: ScenarioContext, a: { length: number; count: number }) {
    const { raw: c, rank, worldSize: n } = ctx;
    const sends = [];
    for (let k = 0; k < a.count; k++)
      sends.push(
        c.send(
          Int32Array.from({ length: a.length }, (_, i) => rank * 1000 + k * 7 + i),
          { dst: (rank + 1) % n },
        ),
      );
    const got = [];
    for (let k = 0; k < a.count; k++)
      got.push(await c.recv(a.length, 'int32', { src: (rank + n - 1) % n }));
    await Promise.all(sends);
    return got;
  },

  /** Throws whatever a bad call throws, synchronously. */
  async badCall(ctx: ScenarioContext, a: { method: string; args: unknown[] }) {
    try {
      const target = (a.method.startsWith('dist.') ? ctx.dist : ctx.raw) as unknown as Record<
        string,
        (...x: unknown[]) => unknown
      >;
      const name = a.method.replace(/^dist\./, '');
      const args = a.method.startsWith('dist.') ? await tensorArgs(ctx, a.args) : a.args;
      target[name]!(...args);
      return { threw: false };
    } catch (err) {
      return { threw: true, message: (err as Error).message };
    }
  },

  /** Rank `thrower` aborts the world (as the cluster does when a rank throws) while the rest wait in a collective. */
  async abortWhileWaiting(ctx: ScenarioContext, a: { thrower: number; reason: string }) {
    if (ctx.rank === a.thrower) {
      await sleep(150);
      ctx.raw.abort(a.reason);
      return 'aborted';
    }
    const t0 = performance.now();
    try {
      await ctx.raw.allReduce(new Float32Array(16), {});
      return 'completed';
    } catch (err) {
      return { error: (err as Error).message, ms: performance.now() - t0 };
    }
  },

  /** Rank `busy` computes synchronously for `ms` (its thread never yields) before its calls; the rest call at once. */
  async busyThenCalls(
    ctx: ScenarioContext,
    a: {
      busy: number;
      ms: number;
      calls: RawCall[];
      p2p?: boolean;
      spin?: boolean;
      awaitDevice?: boolean;
      /** The busy rank awaits a timer instead: its event loop answers (issue 34, item 7). */
      await?: boolean;
    },
  ) {
    const t0 = performance.now();
    if (ctx.rank === a.busy && a.await) await new Promise((r) => setTimeout(r, a.ms));
    else if (ctx.rank === a.busy && a.awaitDevice) {
      // A slow device (a WebGPU readback behind first shader compiles): the read settles after `ms`, the event loop idles.
      const tf = await import('@tensorflow/tfjs');
      const backend = tf.backend() as unknown as { read(id: unknown): Promise<unknown> };
      const read = backend.read.bind(backend);
      backend.read = async (id) => {
        await new Promise((r) => setTimeout(r, a.ms));
        return read(id);
      };
      const t = tf.tensor([1, 2]);
      await t.data();
      t.dispose();
      backend.read = read;
    } else if (ctx.rank === a.busy && a.spin)
      while (performance.now() - t0 < a.ms) {
        /* a loop that computes nothing: no tfjs op, no collective */
      }
    else if (ctx.rank === a.busy) {
      // A long synchronous computation: tfjs ops, read back without yielding (needs a world made withTensors).
      const tf = await import('@tensorflow/tfjs');
      const m = tf.randomNormal([32, 32]);
      while (performance.now() - t0 < a.ms) tf.tidy(() => tf.matMul(m, m).dataSync());
      m.dispose();
    }
    try {
      if (a.p2p) {
        const n = ctx.worldSize;
        const sent = ctx.raw.send(new Float32Array([ctx.rank]), { dst: (ctx.rank + 1) % n });
        const got = await ctx.raw.recv(1, 'float32', { src: (ctx.rank + n - 1) % n });
        await sent;
        return { ok: true, values: [Array.from(got)], ms: performance.now() - t0 };
      }
      const values = [];
      for (const call of a.calls) values.push(await issue(ctx.raw, call));
      return { ok: true, values, ms: performance.now() - t0 };
    } catch (err) {
      return { ok: false, error: (err as Error).message, ms: performance.now() - t0 };
    }
  },

  /** Every rank receives from the next before sending to the previous: a cycle of receives nobody starts. */
  async recvCycle(ctx: ScenarioContext) {
    const t0 = performance.now();
    const n = ctx.worldSize;
    try {
      await ctx.raw.recv(4, 'float32', { src: (ctx.rank + 1) % n });
      await ctx.raw.send(new Float32Array(4), { dst: (ctx.rank + n - 1) % n });
      return { ok: true, ms: performance.now() - t0 };
    } catch (err) {
      return { ok: false, error: (err as Error).message, ms: performance.now() - t0 };
    }
  },

  /** Every rank sends `length` floats to the next before receiving from the previous: longer than a mailbox, no send returns. */
  async sendCycle(ctx: ScenarioContext, length: number) {
    const t0 = performance.now();
    const n = ctx.worldSize;
    try {
      await ctx.raw.send(new Float32Array(length), { dst: (ctx.rank + 1) % n });
      await ctx.raw.recv(length, 'float32', { src: (ctx.rank + n - 1) % n });
      return { ok: true, ms: performance.now() - t0 };
    } catch (err) {
      return { ok: false, error: (err as Error).message, ms: performance.now() - t0 };
    }
  },

  /** Times each rank's outcome: `calls` may differ per rank to provoke mismatches or absences. */
  async timedCalls(ctx: ScenarioContext, calls: RawCall[]) {
    const t0 = performance.now();
    try {
      const values = await Promise.all(calls.map((call) => issue(ctx.raw, call)));
      return { ok: true, values, ms: performance.now() - t0 };
    } catch (err) {
      return { ok: false, error: (err as Error).message, ms: performance.now() - t0 };
    } finally {
      ctx.raw.engine.markExited(); // the program ended, as rank-main.ts marks it
    }
  },

  /** A payload of `elements` float32 per rank, made and checked inside the rank: returns how many elements are wrong. */
  async bigAllReduce(ctx: ScenarioContext, a: { elements: number; algorithm: AllReduceAlgorithm }) {
    const { rank, worldSize: n } = ctx;
    const input = new Float32Array(a.elements);
    for (let i = 0; i < input.length; i++) input[i] = (i % 1000) + rank;
    const out = await ctx.raw.allReduce(input, { algorithm: a.algorithm });
    const offset = (n * (n - 1)) / 2;
    let wrong = 0;
    for (let i = 0; i < out.length; i++) if (out[i] !== n * (i % 1000) + offset) wrong++;
    return { wrong, length: out.length };
  },

  /** Rank `failing` cannot read its input (as when a GPU read fails); the others wait in the same all-reduce. */
  async failingInput(ctx: ScenarioContext, a: { failing: number }) {
    const t0 = performance.now();
    const input =
      ctx.rank === a.failing
        ? {
            dtype: 'float32' as const,
            length: 8,
            data: new Promise<Float32Array>((_, reject) =>
              setTimeout(() => reject(new Error('device lost while reading the tensor')), 100),
            ),
          }
        : new Float32Array(8);
    try {
      await ctx.raw.allReduce(input);
      return { ok: true, ms: performance.now() - t0 };
    } catch (err) {
      return { ok: false, error: (err as Error).message, ms: performance.now() - t0 };
    }
  },

  /** Async all-reduce while this rank keeps computing: the thread must not block. */
  async overlap(ctx: ScenarioContext, a: { length: number; lateRank: number; lateMs: number }) {
    const { dist, rank } = ctx;
    if (!dist) throw new Error('needs tensors');
    const tf = await import('@tensorflow/tfjs');
    if (rank === a.lateRank) await sleep(a.lateMs);
    const x = tf.fill([a.length], rank + 1);
    const work = dist.allReduce(x, { async: true, op: 'sum' });
    const start = performance.now();
    let computeSteps = 0;
    let completedDuringCompute = false;
    const m = tf.randomNormal([64, 64]);
    while (performance.now() - start < a.lateMs / 2) {
      tf.tidy(() => tf.matMul(m, m).sum().dataSync());
      computeSteps++;
      await sleep(0);
      completedDuringCompute ||= work.isCompleted();
    }
    const pendingAfterCompute = !work.isCompleted();
    const y = await work.wait();
    const values = Array.from(await y.data());
    return {
      computeSteps,
      completedDuringCompute,
      pendingAfterCompute,
      completedAfterWait: work.isCompleted(),
      first: values[0],
      inputKept: !x.isDisposed,
      len: values.length,
    };
  },

  /**
   * Virtual time (a world made with `simulation`): every rank computes the same matMul, rank `late` then awaits a
   * wall-clock timer of `ms` (its event loop answers), and all all-reduce. Returns the sum, the virtual time
   * after it, the wall time and the notices this rank's wait reported (issue 34, item 7).
   */
  async awaitThenAllReduceVirtual(ctx: ScenarioContext, a: { late: number; ms: number }) {
    const dist = ctx.dist!;
    const tf = await import('@tensorflow/tfjs');
    const t0 = performance.now();
    const m = tf.ones([64, 64]);
    const x = tf.tidy(() => tf.matMul(m, m).sum().reshape([1]));
    if (ctx.rank === a.late) await new Promise((r) => setTimeout(r, a.ms));
    const sum = await dist.allReduce(x);
    const values = Array.from(await sum.data());
    tf.dispose([m, x, sum]);
    return {
      values,
      virtualSeconds: await dist.simulation!.now(),
      ms: performance.now() - t0,
      notices: [...ctx.notices],
    };
  },

  /** A dist call on tensors; returns what the reader sees. */
  async tensorCall(ctx: ScenarioContext, a: { method: string; args: unknown[] }) {
    const dist = ctx.dist as unknown as Record<string, (...x: unknown[]) => unknown>;
    const args = await tensorArgs(ctx, a.args);
    const r = dist[a.method]!(...args) as unknown;
    const isWork = !!r && typeof (r as { wait?: unknown }).wait === 'function';
    const out = (isWork ? await (r as { wait(): Promise<unknown> }).wait() : await r) as
      | { shape: number[]; dtype: string; data(): Promise<ArrayLike<number>>; isDisposed: boolean }
      | null
      | undefined;
    const inputsAlive = args
      .filter((x) => x && typeof x === 'object' && 'isDisposed' in (x as object))
      .every((x) => !(x as { isDisposed: boolean }).isDisposed);
    if (!out) return { value: out ?? null, isWork, inputsAlive };
    return {
      shape: out.shape,
      dtype: out.dtype,
      values: Array.from(await out.data()),
      isWork,
      inputsAlive,
    };
  },
};

/** `{tensor: values, shape, dtype}` in args becomes a tf tensor; `{group: ranks}` a group made with dist.newGroup. */
async function tensorArgs(ctx: ScenarioContext, args: unknown[]): Promise<unknown[]> {
  const tf = await import('@tensorflow/tfjs');
  const convert = (x: unknown): unknown => {
    if (x && typeof x === 'object' && 'tensor' in x) {
      const t = x as { tensor: number[]; shape: number[]; dtype?: 'float32' | 'int32' };
      return tf.tensor(t.tensor, t.shape, t.dtype ?? 'float32');
    }
    if (x && typeof x === 'object' && !Array.isArray(x) && !ArrayBuffer.isView(x)) {
      return Object.fromEntries(
        Object.entries(x).map(([k, v]) => [
          k,
          k === 'group' && Array.isArray(v) ? ctx.dist!.newGroup(v) : v,
        ]),
      );
    }
    return x;
  };
  return args.map(convert);
}
