import type { ReduceOp } from './dist-api.ts';
import type { CollectiveRun } from './collective-run.ts';
import { ringChunk, sharedView, type Payload } from './typed-views.ts';
import type { KernelOp } from './kernel/reduce-kernel.ts';

/** Where a round's data comes from and goes to: a slice of the caller's arrays, or already in the region. */
export interface AllReduceRound {
  input: Payload | null;
  output: Payload | null;
  offset: number;
  length: number;
}

const kernelOp = (op: ReduceOp): KernelOp => (op === 'avg' ? 'sum' : op);

function load(run: CollectiveRun, r: AllReduceRound): void {
  if (r.input)
    sharedView(run.engine.bytes.buffer, run.dtype, run.region(run.engine.rank), r.length).set(
      r.input.subarray(r.offset, r.offset + r.length),
    );
}

function store(run: CollectiveRun, r: AllReduceRound): void {
  if (r.output)
    r.output.set(
      sharedView(run.engine.bytes.buffer, run.dtype, run.region(run.engine.rank), r.length),
      r.offset,
    );
}

/**
 * Ring all-reduce, one round: reduce-scatter then all-gather, n−1 steps each. At every step a rank pulls one
 * chunk from the previous rank's region; it never waits for more than that neighbour (plus a lagged write guard).
 */
export async function ringAllReduceRound(run: CollectiveRun, r: AllReduceRound): Promise<void> {
  const { engine: e, n, dtype } = run;
  const op = run.desc.op!;
  run.startRound();
  await e.guardRegion(run);
  const t0 = e.env.now();
  load(run, r);
  run.arrive();
  const me = run.region(e.rank);
  const prevRank = run.member(-1);
  const nextRank = run.member(1);
  const prev = run.region(prevRank);
  const m = r.length;
  let received = 0;
  let sent = 0;
  for (let s = 0; s < n - 1; s++) {
    const c = (run.idx - 1 - s + 2 * n) % n;
    const [start, len] = ringChunk(m, n, c);
    await run.until(prevRank, 1 + s);
    const t = e.env.now();
    e.kernel.reduce(kernelOp(op), dtype, me + start * 4, prev + start * 4, len);
    if (s === n - 2 && op === 'avg') e.kernel.divide(dtype, me + start * 4, len, n);
    run.arrive();
    received += len * 4;
    sent += ringChunk(m, n, (run.idx - s + n) % n)[1] * 4;
    e.trace({
      kind: 'allReduce',
      algorithm: 'ring',
      step: s,
      peer: prevRank,
      bytes: len * 4,
      start: t,
      end: e.env.now(),
      label: 'reduce-scatter',
    });
  }
  if (n === 1 && op === 'avg') e.kernel.divide(dtype, me, m, 1);
  for (let s = 0; s < n - 1; s++) {
    const c = (run.idx - s + n) % n;
    const [start, len] = ringChunk(m, n, c);
    await run.until(prevRank, n + s);
    await run.until(nextRank, 2 + s); // the next rank has read our partial chunk c before we overwrite it
    const t = e.env.now();
    e.kernel.copy(me + start * 4, prev + start * 4, len);
    run.arrive();
    received += len * 4;
    sent += ringChunk(m, n, (run.idx + 1 - s + n) % n)[1] * 4;
    e.trace({
      kind: 'allReduce',
      algorithm: 'ring',
      step: n - 1 + s,
      peer: prevRank,
      bytes: len * 4,
      start: t,
      end: e.env.now(),
      label: 'all-gather',
    });
  }
  store(run, r);
  run.endRound();
  e.count('allReduce', sent, received, false);
  if (n === 1)
    e.trace({
      kind: 'allReduce',
      algorithm: 'ring',
      step: 0,
      bytes: 0,
      start: t0,
      end: e.env.now(),
    });
}

/**
 * Two-shot all-reduce, one round: after a barrier, rank r reduces chunk r across every region in place and
 * writes the result back into every region; a second barrier and each rank holds the full result.
 */
export async function twoShotAllReduceRound(run: CollectiveRun, r: AllReduceRound): Promise<void> {
  const { engine: e, n, dtype } = run;
  const op = run.desc.op!;
  run.startRound();
  await e.guardRegion(run);
  load(run, r);
  run.arrive();
  const t0 = e.env.now();
  await run.untilAll(1);
  const t1 = e.env.now();
  e.trace({
    kind: 'allReduce',
    algorithm: 'two-shot',
    step: 0,
    bytes: 0,
    start: t0,
    end: t1,
    label: 'barrier',
  });
  const [start, len] = ringChunk(r.length, n, run.idx);
  const mine = run.region(e.rank) + start * 4;
  const others = run.group.members.filter((m) => m !== e.rank);
  // The fused kernel reads chunk r of every region (in group order, so sums round alike whoever owns the
  // chunk) and writes the result to all of them in one pass.
  const table = e.scratch;
  run.group.members.forEach((q, k) => {
    e.words[(table >> 2) + k] = run.region(q) + start * 4;
  });
  if (!e.kernel.reduceIntoAll(op, dtype, table, n, len)) {
    for (const q of others)
      e.kernel.reduce(kernelOp(op), dtype, mine, run.region(q) + start * 4, len);
    if (op === 'avg') e.kernel.divide(dtype, mine, len, n);
    for (const q of others) e.kernel.copy(run.region(q) + start * 4, mine, len);
  }
  run.arrive();
  const t2 = e.env.now();
  e.trace({
    kind: 'allReduce',
    algorithm: 'two-shot',
    step: 1,
    bytes: others.length * len * 4,
    start: t1,
    end: t2,
    label: `reduce chunk ${run.idx}, write back`,
  });
  await run.untilAll(2);
  store(run, r);
  run.endRound();
  e.trace({
    kind: 'allReduce',
    algorithm: 'two-shot',
    step: 2,
    bytes: 0,
    start: t2,
    end: e.env.now(),
    label: 'barrier',
  });
  e.count('allReduce', others.length * len * 4, others.length * len * 4, false);
}
