import type { CollectiveRun } from './collective-run.ts';
import { ringChunk, sharedView, splitChunk, type Payload } from './typed-views.ts';

/**
 * Reduce-scatter, rooted and gather-style collectives over the shared regions. Each works in rounds that fit
 * one region; every member makes the same number of steps per round so progress counters stay comparable.
 */

const view = (run: CollectiveRun, at: number, len: number) =>
  sharedView(run.engine.bytes.buffer, run.dtype, at, len);
const kernelOp = (run: CollectiveRun) => (run.desc.op === 'avg' ? 'sum' : run.desc.op!);

/** What one round moved, for the rank's counters and the timeline. */
interface RoundResult {
  sent: number;
  received: number;
  /** Bytes the timeline shows for this step (what this rank moved in its role). */
  traced: number;
  label: string;
  peer?: number;
  /** The round wrote this rank's region: peers read it until they pass this round. */
  wroteRegion: boolean;
}

/**
 * The round skeleton every collective here shares: `length` elements in rounds of at most `per`; each round
 * guards this rank's region first (when it will write it), runs `round`, then records, counts and traces it.
 */
async function inRounds(
  run: CollectiveRun,
  length: number,
  per: number,
  writesRegion: boolean,
  round: (off: number, seg: number) => Promise<RoundResult> | RoundResult,
): Promise<void> {
  const e = run.engine;
  const rounds = Math.max(1, Math.ceil(length / per));
  for (let j = 0; j < rounds; j++) {
    run.startRound();
    const off = j * per;
    if (writesRegion) await e.guardRegion(run);
    const start = e.env.now();
    const r = await round(off, Math.max(0, Math.min(per, length - off)));
    if (r.wroteRegion) run.endRound();
    e.count(run.desc.kind, r.sent, r.received, false);
    e.trace({
      kind: run.desc.kind,
      algorithm: 'shared-memory',
      step: j,
      bytes: r.traced,
      start,
      end: e.env.now(),
      label: r.label,
      ...(r.peer === undefined ? {} : { peer: r.peer }),
    });
  }
}

/** Rank r reduces chunk r (torch.tensor_split boundaries) across every region straight into `out`. */
export function reduceScatterRounds(
  run: CollectiveRun,
  input: Payload,
  out: Payload,
): Promise<void> {
  const { engine: e, n } = run;
  const w = Math.max(1, Math.floor(e.regionElements / n));
  const me = run.region(e.rank);
  const [, myLen] = splitChunk(input.length, n, run.idx);
  return inRounds(run, splitChunk(input.length, n, 0)[1], w, true, async (off) => {
    for (let c = 0; c < n; c++) {
      const [start, len] = splitChunk(input.length, n, c);
      const seg = Math.max(0, Math.min(w, len - off));
      view(run, me + c * w * 4, seg).set(input.subarray(start + off, start + off + seg));
    }
    run.arrive();
    await run.untilAll(1);
    const seg = Math.max(0, Math.min(w, myLen - off));
    const dst = me + run.idx * w * 4;
    for (const q of run.group.members)
      if (q !== e.rank)
        e.kernel.reduce(kernelOp(run), run.dtype, dst, run.region(q) + run.idx * w * 4, seg);
    if (run.desc.op === 'avg') e.kernel.divide(run.dtype, dst, seg, n);
    out.set(view(run, dst, seg), off);
    run.arrive();
    let sent = 0;
    for (let c = 0; c < n; c++)
      if (c !== run.idx)
        sent += Math.max(0, Math.min(w, splitChunk(input.length, n, c)[1] - off)) * 4;
    const received = (n - 1) * seg * 4;
    return {
      sent,
      received,
      traced: received,
      label: `reduce chunk ${run.idx}`,
      wroteRegion: true,
    };
  });
}

/** Every rank copies every region's slice into its output: [n × length]. */
export function allGatherRounds(run: CollectiveRun, input: Payload, out: Payload): Promise<void> {
  const { engine: e, n } = run;
  const L = input.length;
  const me = run.region(e.rank);
  return inRounds(run, L, e.regionElements, true, async (off, seg) => {
    view(run, me, seg).set(input.subarray(off, off + seg));
    run.arrive();
    await run.untilAll(1);
    run.group.members.forEach((q, k) => out.set(view(run, run.region(q), seg), k * L + off));
    run.arrive();
    const moved = (n - 1) * seg * 4;
    return {
      sent: moved,
      received: moved,
      traced: moved,
      label: 'gather every region',
      wroteRegion: true,
    };
  });
}

/** The source writes its region; the others copy from it. */
export async function broadcastRounds(
  run: CollectiveRun,
  input: Payload | null,
  out: Payload,
  src: number,
): Promise<void> {
  const { engine: e, n } = run;
  const isSrc = e.rank === src;
  await inRounds(run, out.length, e.regionElements, isSrc, async (off, seg) => {
    if (isSrc) {
      view(run, run.region(src), seg).set(input!.subarray(off, off + seg));
      run.arrive();
      run.arrive();
      return {
        sent: (n - 1) * seg * 4,
        received: 0,
        traced: (n - 1) * seg * 4,
        label: 'write source region',
        wroteRegion: true,
      };
    }
    run.arrive();
    await run.until(src, 1);
    out.set(view(run, run.region(src), seg), off);
    run.arrive();
    return {
      sent: 0,
      received: seg * 4,
      traced: seg * 4,
      label: `copy from rank ${src}`,
      peer: src,
      wroteRegion: false,
    };
  });
  if (isSrc) out.set(input!);
}

/** Rank r reduces chunk r in place in its own region; the destination then collects every chunk. */
export async function reduceRounds(
  run: CollectiveRun,
  input: Payload,
  out: Payload,
  dst: number,
): Promise<void> {
  const { engine: e, n } = run;
  const me = run.region(e.rank);
  const isDst = e.rank === dst;
  await inRounds(run, input.length, e.regionElements, true, async (off, m) => {
    view(run, me, m).set(input.subarray(off, off + m));
    run.arrive();
    await run.untilAll(1);
    const [start, len] = ringChunk(m, n, run.idx);
    for (const q of run.group.members)
      if (q !== e.rank)
        e.kernel.reduce(kernelOp(run), run.dtype, me + start * 4, run.region(q) + start * 4, len);
    if (run.desc.op === 'avg') e.kernel.divide(run.dtype, me + start * 4, len, n);
    run.arrive();
    let received = (n - 1) * len * 4;
    if (isDst) {
      await run.untilEach(2); // only the destination waits here: a barrier count would not hold
      run.group.members.forEach((q, k) => {
        const [s, l] = ringChunk(m, n, k);
        out.set(view(run, run.region(q) + s * 4, l), off + s);
        if (q !== e.rank) received += l * 4;
      });
    }
    run.arrive();
    const sent = (n - 1) * len * 4 + (isDst ? 0 : len * 4);
    return {
      sent,
      received,
      traced: received,
      label: isDst ? 'reduce own chunk, collect all' : `reduce own chunk for rank ${dst}`,
      wroteRegion: true,
    };
  });
  if (!isDst) out.set(input);
}

/** The source lays out one slice per member in its region; each member copies its own. */
export function scatterRounds(
  run: CollectiveRun,
  input: Payload | null,
  out: Payload,
  src: number,
): Promise<void> {
  const { engine: e, n } = run;
  const L = out.length;
  const w = Math.max(1, Math.floor(e.regionElements / n));
  const isSrc = e.rank === src;
  const base = run.region(src);
  return inRounds(run, L, w, isSrc, async (off, seg) => {
    if (isSrc) {
      for (let k = 0; k < n; k++)
        view(run, base + k * w * 4, seg).set(input!.subarray(k * L + off, k * L + off + seg));
      run.arrive();
      out.set(input!.subarray(run.idx * L + off, run.idx * L + off + seg), off);
      run.arrive();
      return {
        sent: (n - 1) * seg * 4,
        received: 0,
        traced: (n - 1) * seg * 4,
        label: 'lay out slices',
        wroteRegion: true,
      };
    }
    run.arrive();
    await run.until(src, 1);
    out.set(view(run, base + run.idx * w * 4, seg), off);
    run.arrive();
    return {
      sent: 0,
      received: seg * 4,
      traced: seg * 4,
      label: `copy slice from rank ${src}`,
      peer: src,
      wroteRegion: false,
    };
  });
}

/** Every member writes its region; the destination copies them all. */
export function gatherRounds(
  run: CollectiveRun,
  input: Payload,
  out: Payload | null,
  dst: number,
): Promise<void> {
  const { engine: e, n } = run;
  const L = input.length;
  const me = run.region(e.rank);
  return inRounds(run, L, e.regionElements, true, async (off, seg) => {
    view(run, me, seg).set(input.subarray(off, off + seg));
    run.arrive();
    if (out) {
      await run.untilEach(1); // only the destination waits here: a barrier count would not hold
      run.group.members.forEach((q, k) => out.set(view(run, run.region(q), seg), k * L + off));
    }
    run.arrive();
    return out
      ? {
          sent: 0,
          received: (n - 1) * seg * 4,
          traced: (n - 1) * seg * 4,
          label: 'collect every region',
          wroteRegion: true,
        }
      : {
          sent: seg * 4,
          received: 0,
          traced: seg * 4,
          label: `write region for rank ${dst}`,
          wroteRegion: true,
        };
  });
}

export async function barrierRound(run: CollectiveRun): Promise<void> {
  const t0 = run.engine.env.now();
  run.arrive();
  await run.untilAll(1);
  run.engine.count('barrier', 0, 0, false);
  run.engine.trace({ kind: 'barrier', step: 0, bytes: 0, start: t0, end: run.engine.env.now() });
}
