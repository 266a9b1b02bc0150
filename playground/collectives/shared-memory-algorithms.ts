import type { CollectiveRun } from './collective-engine.ts';
import { ringChunk, sharedView, splitChunk, type Payload } from './typed-views.ts';

/**
 * Reduce-scatter, rooted and gather-style collectives over the shared regions. Each works in rounds that fit
 * one region; every member makes the same number of steps per round so progress counters stay comparable.
 */

const view = (run: CollectiveRun, at: number, len: number) => sharedView(run.engine.bytes.buffer, run.dtype, at, len);

function traceStep(run: CollectiveRun, step: number, bytes: number, start: number, label: string, peer?: number): void {
  run.engine.trace({ kind: run.desc.kind, algorithm: 'shared-memory', step, bytes, start, end: run.engine.env.now(), label, ...(peer === undefined ? {} : { peer }) });
}

/** Rank r reduces chunk r (torch.tensor_split boundaries) across every region straight into `out`. */
export async function reduceScatterRounds(run: CollectiveRun, input: Payload, out: Payload): Promise<void> {
  const { engine: e, n } = run;
  const op = run.desc.op!;
  const w = Math.max(1, Math.floor(e.regionElements / n));
  const longest = splitChunk(input.length, n, 0)[1];
  const rounds = Math.max(1, Math.ceil(longest / w));
  const me = run.region(e.rank);
  const [, myLen] = splitChunk(input.length, n, run.idx);
  for (let j = 0; j < rounds; j++) {
    run.startRound();
    const off = j * w;
    await e.guardRegion(run);
    const t0 = e.env.now();
    for (let c = 0; c < n; c++) {
      const [start, len] = splitChunk(input.length, n, c);
      const seg = Math.max(0, Math.min(w, len - off));
      view(run, me + c * w * 4, seg).set(input.subarray(start + off, start + off + seg));
    }
    run.arrive();
    await run.untilAll(1);
    const seg = Math.max(0, Math.min(w, myLen - off));
    const dst = me + run.idx * w * 4;
    for (const q of run.group.members) if (q !== e.rank) e.kernel.reduce(op === 'avg' ? 'sum' : op, run.dtype, dst, run.region(q) + run.idx * w * 4, seg);
    if (op === 'avg') e.kernel.divide(run.dtype, dst, seg, n);
    out.set(view(run, dst, seg), off);
    run.arrive();
    run.endRound();
    let sent = 0;
    for (let c = 0; c < n; c++) if (c !== run.idx) sent += Math.max(0, Math.min(w, splitChunk(input.length, n, c)[1] - off)) * 4;
    e.count('reduceScatter', sent, (n - 1) * seg * 4, false);
    traceStep(run, j, (n - 1) * seg * 4, t0, `reduce chunk ${run.idx}`);
  }
}

/** Every rank copies every region's slice into its output: [n × length]. */
export async function allGatherRounds(run: CollectiveRun, input: Payload, out: Payload): Promise<void> {
  const { engine: e, n } = run;
  const L = input.length;
  const w = e.regionElements;
  const rounds = Math.max(1, Math.ceil(L / w));
  const me = run.region(e.rank);
  for (let j = 0; j < rounds; j++) {
    run.startRound();
    const off = j * w;
    const seg = Math.max(0, Math.min(w, L - off));
    await e.guardRegion(run);
    const t0 = e.env.now();
    view(run, me, seg).set(input.subarray(off, off + seg));
    run.arrive();
    await run.untilAll(1);
    run.group.members.forEach((q, k) => out.set(view(run, run.region(q), seg), k * L + off));
    run.arrive();
    run.endRound();
    e.count('allGather', (n - 1) * seg * 4, (n - 1) * seg * 4, false);
    traceStep(run, j, (n - 1) * seg * 4, t0, 'gather every region');
  }
}

/** The source writes its region; the others copy from it. */
export async function broadcastRounds(run: CollectiveRun, input: Payload | null, out: Payload, src: number): Promise<void> {
  const { engine: e, n } = run;
  const L = out.length;
  const w = e.regionElements;
  const rounds = Math.max(1, Math.ceil(L / w));
  const isSrc = e.rank === src;
  for (let j = 0; j < rounds; j++) {
    run.startRound();
    const off = j * w;
    const seg = Math.max(0, Math.min(w, L - off));
    const t0 = e.env.now();
    if (isSrc) {
      await e.guardRegion(run);
      view(run, run.region(src), seg).set(input!.subarray(off, off + seg));
      run.arrive();
      run.arrive();
      run.endRound();
      e.count('broadcast', (n - 1) * seg * 4, 0, false);
    } else {
      run.arrive();
      await run.until(src, 1);
      out.set(view(run, run.region(src), seg), off);
      run.arrive();
      e.count('broadcast', 0, seg * 4, false);
    }
    traceStep(run, j, isSrc ? (n - 1) * seg * 4 : seg * 4, t0, isSrc ? 'write source region' : `copy from rank ${src}`, isSrc ? undefined : src);
  }
  if (isSrc) out.set(input!);
}

/** Rank r reduces chunk r in place in its own region; the destination then collects every chunk. */
export async function reduceRounds(run: CollectiveRun, input: Payload, out: Payload, dst: number): Promise<void> {
  const { engine: e, n } = run;
  const op = run.desc.op!;
  const L = input.length;
  const w = e.regionElements;
  const rounds = Math.max(1, Math.ceil(L / w));
  const me = run.region(e.rank);
  for (let j = 0; j < rounds; j++) {
    run.startRound();
    const off = j * w;
    const m = Math.max(0, Math.min(w, L - off));
    await e.guardRegion(run);
    const t0 = e.env.now();
    view(run, me, m).set(input.subarray(off, off + m));
    run.arrive();
    await run.untilAll(1);
    const [start, len] = ringChunk(m, n, run.idx);
    for (const q of run.group.members) if (q !== e.rank) e.kernel.reduce(op === 'avg' ? 'sum' : op, run.dtype, me + start * 4, run.region(q) + start * 4, len);
    if (op === 'avg') e.kernel.divide(run.dtype, me + start * 4, len, n);
    run.arrive();
    let received = (n - 1) * len * 4;
    if (e.rank === dst) {
      await run.untilAll(2);
      run.group.members.forEach((q, k) => {
        const [s, l] = ringChunk(m, n, k);
        out.set(view(run, run.region(q) + s * 4, l), off + s);
        if (q !== e.rank) received += l * 4;
      });
    }
    run.arrive();
    run.endRound();
    e.count('reduce', (n - 1) * len * 4 + (e.rank === dst ? 0 : len * 4), received, false);
    traceStep(run, j, received, t0, e.rank === dst ? 'reduce own chunk, collect all' : `reduce own chunk for rank ${dst}`);
  }
  if (e.rank !== dst) out.set(input);
}

/** The source lays out one slice per member in its region; each member copies its own. */
export async function scatterRounds(run: CollectiveRun, input: Payload | null, out: Payload, src: number): Promise<void> {
  const { engine: e, n } = run;
  const L = out.length;
  const w = Math.max(1, Math.floor(e.regionElements / n));
  const rounds = Math.max(1, Math.ceil(L / w));
  const isSrc = e.rank === src;
  const base = run.region(src);
  for (let j = 0; j < rounds; j++) {
    run.startRound();
    const off = j * w;
    const seg = Math.max(0, Math.min(w, L - off));
    const t0 = e.env.now();
    if (isSrc) {
      await e.guardRegion(run);
      for (let k = 0; k < n; k++) view(run, base + k * w * 4, seg).set(input!.subarray(k * L + off, k * L + off + seg));
      run.arrive();
      out.set(input!.subarray(run.idx * L + off, run.idx * L + off + seg), off);
      run.arrive();
      run.endRound();
      e.count('scatter', (n - 1) * seg * 4, 0, false);
    } else {
      run.arrive();
      await run.until(src, 1);
      out.set(view(run, base + run.idx * w * 4, seg), off);
      run.arrive();
      e.count('scatter', 0, seg * 4, false);
    }
    traceStep(run, j, isSrc ? (n - 1) * seg * 4 : seg * 4, t0, isSrc ? 'lay out slices' : `copy slice from rank ${src}`, isSrc ? undefined : src);
  }
}

/** Every member writes its region; the destination copies them all. */
export async function gatherRounds(run: CollectiveRun, input: Payload, out: Payload | null, dst: number): Promise<void> {
  const { engine: e, n } = run;
  const L = input.length;
  const w = e.regionElements;
  const rounds = Math.max(1, Math.ceil(L / w));
  const me = run.region(e.rank);
  for (let j = 0; j < rounds; j++) {
    run.startRound();
    const off = j * w;
    const seg = Math.max(0, Math.min(w, L - off));
    await e.guardRegion(run);
    const t0 = e.env.now();
    view(run, me, seg).set(input.subarray(off, off + seg));
    run.arrive();
    if (out) {
      await run.untilAll(1);
      run.group.members.forEach((q, k) => out.set(view(run, run.region(q), seg), k * L + off));
    }
    run.arrive();
    run.endRound();
    e.count('gather', out ? 0 : seg * 4, out ? (n - 1) * seg * 4 : 0, false);
    traceStep(run, j, (out ? n - 1 : 1) * seg * 4, t0, out ? 'collect every region' : `write region for rank ${dst}`);
  }
}

export async function barrierRound(run: CollectiveRun): Promise<void> {
  const t0 = run.engine.env.now();
  run.arrive();
  await run.untilAll(1);
  run.engine.count('barrier', 0, 0, false);
  run.engine.trace({ kind: 'barrier', step: 0, bytes: 0, start: t0, end: run.engine.env.now() });
}
