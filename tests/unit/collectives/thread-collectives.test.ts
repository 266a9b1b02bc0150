// Issue 30, point 1: collectives among logical ranks of one thread hand arrays over by reference
// (playground/collectives/thread-collectives.ts). Here every rank of a world lives on the test's own thread, as
// logical ranks do on a worker; `threadRanks` says which of them the placement put together. The same calls run
// once with the thread path and once on the shared-memory engine, and must agree bit for bit.
import { afterEach, describe, expect, it } from 'vitest';
import type { ReduceOp, TraceEvent } from '../../../playground/contract/protocol.ts';
import { RankCollectives } from '../../../playground/collectives/rank-collectives.ts';
import { createSharedWorld } from '../../../playground/collectives/shared-world.ts';
import type { Payload } from '../../../playground/collectives/typed-views.ts';
import { THREAD_PATH_MAX_ELEMENTS } from '../../../playground/collectives/thread-collectives.ts';

const started: RankCollectives[] = [];
afterEach(() => {
  for (const c of started.splice(0)) c.engine.stopHeartbeat();
});

/**
 * `size` hosted ranks on this thread; `placement` (else none): the threads the placement says they are on, in
 * blocks, or one list for a single thread of all of them.
 */
function hostedWorld(size: number, placement?: number[] | number[][], watchdogMs = 5000) {
  const threads =
    placement === undefined
      ? undefined
      : typeof placement[0] === 'number'
        ? [placement as number[]]
        : (placement as number[][]);
  const world = createSharedWorld(size, { arenaBytes: size * 4096, watchdogMs });
  const traces: TraceEvent[] = [];
  const ranks = Array.from({ length: size }, (_, rank) => {
    const c = new RankCollectives(world, rank, {
      now: () => performance.now(),
      hosted: true,
      onTrace: (e) => traces.push(e),
      ...(threads ? { threadRanks: threads.find((t) => t.includes(rank)) ?? [rank] } : {}),
    });
    started.push(c);
    return c;
  });
  return { ranks, traces };
}

/** Values whose float32 sum depends on the order they are added in (large and tiny, both signs). */
function input(rank: number, length: number, dtype: 'float32' | 'int32', op: ReduceOp): Payload {
  if (dtype === 'int32')
    return Int32Array.from({ length }, (_, i) =>
      op === 'prod' ? ((rank * 7 + i) % 5) - 2 : ((rank * 2654435761 + i * 40503) | 0) >> 1,
    );
  return Float32Array.from({ length }, (_, i) => {
    const x = Math.sin(rank * 12.9898 + i * 78.233) * 43758.5453;
    if (op === 'prod') return 0.5 + (x - Math.floor(x));
    return (x - Math.floor(x) - 0.5) * 10 ** (((rank + i) % 9) - 4);
  });
}

const bits = (a: Payload | null) =>
  a ? Array.from(new Int32Array(a.buffer, a.byteOffset, a.length)) : null;

type Call = (c: RankCollectives, rank: number) => Promise<Payload>;

/** Runs `call` on every rank of a world with the thread path and of one without: results and counters. */
async function bothPaths(size: number, call: Call, placement?: number[][]) {
  const run = async (threads?: number[][]) => {
    const { ranks, traces } = hostedWorld(size, threads);
    const out = await Promise.all(ranks.map((c, r) => call(c, r)));
    return { out: out.map(bits), stats: ranks.map((c) => c.commStats()), traces };
  };
  const thread = await run(placement ?? [[...Array(size).keys()]]);
  const engine = await run();
  return { thread, engine };
}

describe('collectives among the logical ranks of one thread', () => {
  const LENGTH = 1000; // more than one region of 4 KB (1,024 elements) once split: rounds on the engine side
  for (const dtype of ['float32', 'int32'] as const)
    for (const op of ['sum', 'avg', 'prod', 'max', 'min'] as const) {
      it(`all-reduce ${op} ${dtype}: the engine's two-shot result, bit for bit, and its counters`, async () => {
        const { thread, engine } = await bothPaths(6, (c, r) =>
          c.allReduce(input(r, LENGTH, dtype, op), { op }),
        );
        expect(thread.out).toEqual(engine.out);
        expect(thread.stats).toEqual(engine.stats);
        expect(thread.traces.every((t) => t.algorithm === 'in-thread')).toBe(true);
        expect(engine.traces.some((t) => t.algorithm === 'two-shot')).toBe(true);
      });
      it(`reduce-scatter ${op} ${dtype}: bit for bit, and its counters`, async () => {
        const { thread, engine } = await bothPaths(5, (c, r) =>
          c.reduceScatter(input(r, 2 * LENGTH + 3, dtype, op), { op }),
        );
        expect(thread.out).toEqual(engine.out);
        expect(thread.stats).toEqual(engine.stats);
      });
    }

  it('all-gather over several regions: the same blocks and counters', async () => {
    const { thread, engine } = await bothPaths(4, (c, r) =>
      c.allGather(input(r, 1500, 'float32', 'sum')),
    );
    expect(thread.out).toEqual(engine.out);
    expect(thread.stats).toEqual(engine.stats);
  });

  it('a group on this thread takes the path, one spanning threads stays on the engine; Work and wait()', async () => {
    // Ranks 0-3 share a thread by the placement, 4-7 another (both this one in truth).
    const { ranks, traces } = hostedWorld(8, [
      [0, 1, 2, 3],
      [4, 5, 6, 7],
    ]);
    const out = await Promise.all(
      ranks.map(async (c, r) => {
        const local = c.newGroup(r < 4 ? [0, 1, 2, 3] : [4, 5, 6, 7]);
        const x = input(r, 64, 'float32', 'sum');
        const work = local.allReduce(x, { async: true });
        const spanning = await c.allReduce(x, { op: 'sum' });
        return { inGroup: bits(await work.wait()), spanning: bits(spanning) };
      }),
    );
    const sum = (members: number[]) => {
      const acc = new Float32Array(64);
      for (const m of members) {
        const x = input(m, 64, 'float32', 'sum');
        for (let i = 0; i < 64; i++) acc[i] = acc[i]! + x[i]!;
      }
      return bits(acc);
    };
    out.forEach((o, r) => {
      expect(o.inGroup).toEqual(sum(r < 4 ? [0, 1, 2, 3] : [4, 5, 6, 7]));
      expect(o.spanning).toEqual(sum([0, 1, 2, 3, 4, 5, 6, 7]));
    });
    // Two calls a rank on the thread path: the group's, and the world's as a chain across the two threads.
    expect(traces.filter((t) => t.algorithm === 'in-thread')).toHaveLength(16);
  });

  for (const op of ['sum', 'avg', 'prod', 'max', 'min'] as const)
    it(`all-reduce ${op} across threads, as a chain in group order: bit for bit, over several regions`, async () => {
      // 2,600 elements: three rounds of a 1,024-element region. Threads of 3, 4 and 1 ranks.
      const placement = [[0, 1, 2], [3, 4, 5, 6], [7]];
      for (const dtype of ['float32', 'int32'] as const) {
        const { thread, engine } = await bothPaths(
          8,
          async (c, r) => {
            const first = await c.allReduce(input(r, 2600, dtype, op), { op });
            const again = await c.allReduce(input(r + 1, 7, dtype, op), { op }); // the regions again
            return Float32Array.from([...first, ...again].map((v) => v));
          },
          placement,
        );
        expect(thread.out).toEqual(engine.out);
        expect(thread.stats).toEqual(engine.stats);
        expect(thread.traces.every((t) => t.algorithm === 'in-thread')).toBe(true);
      }
    });

  it('all-gather across threads: the same blocks and counters, over several regions', async () => {
    const { thread, engine } = await bothPaths(
      8,
      async (c, r) => {
        const first = await c.allGather(input(r, 2600, 'float32', 'sum'));
        const again = await c.allGather(input(r + 1, 7, 'float32', 'sum')); // the regions again
        return Float32Array.from([...first, ...again]);
      },
      [[0, 1, 2], [3, 4, 5, 6], [7]],
    );
    expect(thread.out).toEqual(engine.out);
    expect(thread.stats).toEqual(engine.stats);
    expect(thread.traces.every((t) => t.algorithm === 'in-thread')).toBe(true);
  });

  // The rooted collectives and the barrier, with a root that is not member 0 and payloads over several regions.
  for (const dtype of ['float32', 'int32'] as const)
    for (const op of ['sum', 'avg', 'prod', 'max', 'min'] as const)
      it(`reduce ${op} ${dtype} to rank 2: the engine's chunk order, bit for bit, and its counters`, async () => {
        const { thread, engine } = await bothPaths(5, (c, r) =>
          c.reduce(input(r, 2 * LENGTH + 3, dtype, op), { dst: 2, op }),
        );
        expect(thread.out).toEqual(engine.out);
        expect(thread.stats).toEqual(engine.stats);
        expect(thread.traces.every((t) => t.algorithm === 'in-thread')).toBe(true);
      });

  it('broadcast, scatter, gather and barrier from rank 3: the same arrays and counters', async () => {
    const { thread, engine } = await bothPaths(5, async (c, r) => {
      const b = await c.broadcast(input(r, 2 * LENGTH + 3, 'float32', 'sum'), { src: 3 });
      const whole = r === 3 ? input(9, 5 * 700, 'int32', 'sum') : null;
      const s = await c.scatter(whole, 700, 'int32', { src: 3 });
      await c.barrier();
      const g = await c.gather(input(r, 900, 'float32', 'sum'), { dst: 3 });
      const asF32 = (a: Payload) => new Float32Array(a.buffer, a.byteOffset, a.length);
      return Float32Array.from([...b, ...asF32(s), ...(g ?? [])]);
    });
    expect(thread.out).toEqual(engine.out);
    expect(thread.stats).toEqual(engine.stats);
    expect(thread.traces.every((t) => t.algorithm === 'in-thread')).toBe(true);
    expect(engine.traces.some((t) => t.algorithm === 'in-thread')).toBe(false);
  });

  it('a payload past THREAD_PATH_MAX_ELEMENTS stays on the engine (its SIMD kernel is faster there)', async () => {
    const { ranks, traces } = hostedWorld(2, [[0], [1]]);
    const length = THREAD_PATH_MAX_ELEMENTS + 1;
    const out = await Promise.all(
      ranks.map((c, r) => c.allReduce(input(r, length, 'float32', 'sum'))),
    );
    expect(bits(out[0]!)).toEqual(bits(out[1]!));
    expect(traces.some((t) => t.algorithm === 'in-thread')).toBe(false);
  });

  it('the ring (the book draws it) stays on the engine', async () => {
    const { ranks, traces } = hostedWorld(3, [0, 1, 2]);
    await Promise.all(
      ranks.map((c, r) => c.allReduce(input(r, 30, 'float32', 'sum'), { algorithm: 'ring' })),
    );
    expect(traces.some((t) => t.algorithm === 'ring')).toBe(true);
    expect(traces.some((t) => t.algorithm === 'in-thread')).toBe(false);
  });
});

describe('what the engine guarantees holds on the thread path', () => {
  /** Every rank's error message (or 'ok'). */
  const outcomes = (calls: Promise<unknown>[]) =>
    Promise.all(
      calls.map((p) =>
        p.then(
          () => 'ok',
          (e: unknown) => (e instanceof Error ? e.message : String(e)),
        ),
      ),
    );

  it('a mismatch (op, size) fails every rank with the engine’s message', async () => {
    for (const placement of [[0, 1, 2], [[0, 1], [2]], undefined]) {
      const { ranks } = hostedWorld(3, placement);
      const got = await outcomes(
        ranks.map((c, r) =>
          c.allReduce(new Float32Array(r === 2 ? 5 : 4), { op: r === 1 ? 'avg' : 'sum' }),
        ),
      );
      for (const m of got)
        expect(m).toMatch(
          /^Mismatched collectives on the world group at call #0: rank \d called allReduce\(/,
        );
      expect(got.join()).toMatch(/they differ in (op|size)/);
    }
  });

  it('calls in different orders on two groups: a deadlock naming the ranks', async () => {
    const { ranks } = hostedWorld(3, [0, 1, 2]);
    const pair = ranks.map((c) => c.newGroup([0, 1]));
    const x = new Float32Array(4);
    const got = await outcomes([
      ranks[0]!.allReduce(x).then(() => ranks[0]!.allReduce(x, { group: pair[0] })),
      ranks[1]!.allReduce(x, { group: pair[1] }).then(() => ranks[1]!.allReduce(x)),
      ranks[2]!.allReduce(x),
    ]);
    expect(got[0]).toMatch(/^Deadlock: rank [01] is in allReduce.* waiting for rank [01]/);
    expect(new Set(got).size).toBe(1); // every rank ends with the same reason
  });

  it('a rank whose program ended: every waiting rank names it, as on the engine', async () => {
    const messages: string[][] = [];
    for (const placement of [[0, 1, 2], undefined, [[0], [1, 2]]]) {
      const { ranks } = hostedWorld(3, placement);
      ranks[2]!.engine.markExited();
      messages.push(
        await outcomes([
          ranks[0]!.allGather(new Float32Array(2)),
          ranks[1]!.allGather(new Float32Array(2)),
        ]),
      );
    }
    for (const got of messages) {
      for (const m of got) expect(m).toMatch(/rank 2/);
      expect(got[0]).toBe(got[1]);
    }
    // The same message, whichever waiting rank saw it first.
    const who = (m: string) => m.replace(/while rank [01] waits/, 'while rank _ waits');
    expect(messages[0]!.map(who)).toEqual(messages[1]!.map(who));
    expect(messages[2]!.map(who)).toEqual(messages[1]!.map(who));
  }, 10_000);

  it('an abort (Stop, a failed rank) ends a call waiting on the thread', async () => {
    const { ranks } = hostedWorld(2, [0, 1]);
    const waiting = outcomes([ranks[0]!.reduceScatter(new Float32Array(4))]);
    setTimeout(() => ranks[1]!.abort('rank 1 failed: stopped'), 50);
    expect(await waiting).toEqual(['rank 1 failed: stopped']);
  });
});
