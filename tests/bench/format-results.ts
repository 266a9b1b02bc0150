// Turns benchmark rows into tests/bench/RESULTS.md: tables per environment and world, ratios, and the targets.
import { DRAM_MEMCPY_BYTES, formatBytes, type BenchRow } from './bench-driver.ts';

export interface DdpResult {
  worldSize: number;
  params: number;
  buckets: number;
  overlapMs: number;
  afterBackwardMs: number;
  ratio: number;
}

const f = (x: number | undefined, digits = 2) =>
  x === undefined || !Number.isFinite(x) ? '–' : x.toFixed(digits);

function find(
  rows: BenchRow[],
  env: string,
  ranks: number,
  method: string,
  bytes: number,
): BenchRow | undefined {
  return rows.find(
    (r) =>
      r.environment === env &&
      r.method === method &&
      r.bytes === bytes &&
      (method === 'memcpy' || method === 'fresh-copy' || r.ranks === ranks),
  );
}

export function targets(rows: BenchRow[], env = 'chromium') {
  const MB16 = 16 << 20;
  const memcpy = find(rows, env, 1, 'memcpy', MB16)?.busbw;
  const auto = find(rows, env, 4, 'auto', MB16)?.busbw;
  const ring = find(rows, env, 4, 'ring', MB16)?.busbw;
  const latency = find(rows, env, 2, 'auto', 4096)?.us;
  const losses = rows
    .filter(
      (r) =>
        r.environment === env &&
        ['ring', 'two-shot', 'auto'].includes(r.method) &&
        r.bytes >= 65536,
    )
    .filter((r) => {
      const pm = find(rows, env, r.ranks, 'postMessage', r.bytes);
      return pm !== undefined && r.us >= pm.us;
    })
    .map((r) => `${r.method} ${formatBytes(r.bytes)} n=${r.ranks}`);
  return {
    autoRatio: auto !== undefined && memcpy ? auto / memcpy : undefined,
    ringRatio: ring !== undefined && memcpy ? ring / memcpy : undefined,
    latency,
    losses,
  };
}

/** What bounds the numbers, each figure read from the rows above it. */
function limits(rows: BenchRow[], env: string): string[] {
  const MB = 1 << 20;
  const us = (n: number, m: string, b: number) => find(rows, env, n, m, b)?.us;
  const bus = (n: number, m: string, b: number) => find(rows, env, n, m, b)?.busbw;
  const mem16 = find(rows, env, 1, 'memcpy', 16 * MB)?.busbw;
  const mem1 = find(rows, env, 1, 'memcpy', MB)?.busbw;
  if (mem16 === undefined || us(4, 'auto', 16 * MB) === undefined) return [];
  const ringVsTwoShot = (bus(4, 'ring', 16 * MB) ?? NaN) / (bus(4, 'two-shot', 16 * MB) ?? NaN);
  return [
    '**What limits it.**',
    `- Memory bandwidth. One thread copies 16 MB at ${f(mem16)} GB/s but 1 MB at ${f(mem1)} GB/s (caches): at 16 MB and up every algorithm streams through DRAM that both cores share.`,
    `  Per all-reduce the two-shot (fused: one pass reads chunk r of every region and writes the result into all of them) moves 2n payloads of bytes, the ring 5(n−1): at 4 ranks 8 against 15, and the ring reaches ${f(ringVsTwoShot)}× the two-shot's busbw at 16 MB.`,
    `  The raw rows start with the data already in shared memory and run on both cores at once, so busbw can exceed the one-thread memcpy figure.`,
    `- Ranks beyond cores. Latency of a 4 KB auto all-reduce: ${f(us(2, 'auto', 4096), 1)} µs at 2 ranks (waiters spin briefly, each rank has a core), ${f(us(4, 'auto', 4096), 1)} µs at 4 and ${f(us(8, 'auto', 4096), 1)} µs at 8, where every barrier is a futex sleep and wake and a context switch on 2 cores.`,
    `  With \`{async: true}\` the waits go through Atomics.waitAsync and the event loop: ${f(us(2, 'auto-async', 4096), 1)} µs at 2 ranks, the price of not blocking the thread.`,
    `- Tensors in and out. \`dist.allReduce\` on a 16 MB tensor at 4 ranks takes ${f(us(4, 'tensor-auto', 16 * MB), 0)} µs against ${f(us(4, 'auto', 16 * MB), 0)} µs raw: it copies the tensor's data into shared memory, and the result into a pooled array the returned tensor keeps.`,
    `  Those two copies alone (\`copy-in-out\`, no tensor) take ${f(us(4, 'copy-in-out', 16 * MB), 0)} µs, the copy in alone ${f(us(4, 'copy-in', 16 * MB), 0)} µs; one copy into a fresh 16 MB array takes ${f(find(rows, env, 1, 'fresh-copy', 16 * MB)?.us, 0)} µs (first touch of new pages).`,
    '',
  ];
}

/**
 * The reader's path (`dist.allReduce` on a tensor) against the raw all-reduce on data already in shared
 * memory, against the floors of any path from private memory (`copy-in`: the input copied into shared memory
 * first; `copy-in-out`: and the result copied out), and against postMessage, per size and world.
 * `tensor-fresh` (the path before the result pool) gets its columns when it was run.
 */
export function tensorPathSection(rows: BenchRow[], env: string): string[] {
  const dram = find(rows, env, 1, 'memcpy', DRAM_MEMCPY_BYTES)?.busbw;
  const mine = rows.filter((r) => r.environment === env && r.method === 'tensor-auto');
  if (mine.length === 0) return [];
  const withFresh = rows.some((r) => r.environment === env && r.method === 'tensor-fresh');
  const losses = mine.filter((t) => {
    const pm = find(rows, env, t.ranks, 'postMessage', t.bytes);
    return t.bytes >= 65536 && pm !== undefined && t.us >= pm.us;
  });
  const at = (m: string) => find(rows, env, 4, m, 16 << 20)?.us;
  const over = (m: string) => f((at(m) ?? NaN) / (at('auto') ?? NaN));
  const out = [
    `### ${env}: tensor path against raw \`auto\`, the copy floors and postMessage`,
    '',
    `- Tensor path not faster than postMessage at ≥ 64 KB: ${losses.length ? losses.map((t) => `${formatBytes(t.bytes)} n=${t.ranks}`).join(', ') : '**none**'} (target: none).`,
    `- 16 MB, 4 ranks, ×raw: tensor path **${over('tensor-auto')}** (target ≤ 1.5); its floors: one copy in **${over('copy-in')}**, a copy in and one out **${over('copy-in-out')}**.`,
    '',
    `Time µs. "pooled" = \`tensor-auto\` (the reader's \`dist.allReduce\`, result in a pooled array)${withFresh ? ', "fresh" = `tensor-fresh` (a new array per result, the path before the pool)' : ''}. "copy-in": a private array copied into the rank's shared region, then the raw all-reduce; "copy-in-out": the result also copied back to a private array — the least any path pays whose input and output live in private memory, as a tfjs tensor's do. ×raw = time / raw \`auto\`; ×pM = postMessage / tensor (above 1: the tensor path wins); busbw/DRAM = pooled busbw / one-thread memcpy of ${formatBytes(DRAM_MEMCPY_BYTES)} (${f(dram)} GB/s, larger than the 32 MB L3).`,
    '',
    `| ranks | size | auto µs | copy-in µs | copy-in-out µs | pooled µs | postMessage µs | ×raw copy-in | ×raw copy-in-out | ×raw pooled | ×pM pooled | ${withFresh ? 'fresh µs | ×raw fresh | ×pM fresh | ' : ''}busbw/DRAM |`,
    `|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|${withFresh ? '---:|---:|---:|' : ''}---:|`,
  ];
  for (const t of mine) {
    const { ranks: n, bytes } = t;
    const row = (m: string) => find(rows, env, n, m, bytes);
    const [raw, pm, fresh, copyIn, copyInOut] = [
      'auto',
      'postMessage',
      'tensor-fresh',
      'copy-in',
      'copy-in-out',
    ].map(row);
    const ratio = (a?: BenchRow, b?: BenchRow) => f(a && b ? a.us / b.us : undefined);
    out.push(
      `| ${n} | ${formatBytes(bytes)} | ${f(raw?.us, 1)} | ${f(copyIn?.us, 1)} | ${f(copyInOut?.us, 1)} | ${f(t.us, 1)} | ${f(pm?.us, 1)} | ${ratio(copyIn, raw)} | ${ratio(copyInOut, raw)} | ${ratio(t, raw)} | ${ratio(pm, t)} | ${withFresh ? `${f(fresh?.us, 1)} | ${ratio(fresh, raw)} | ${ratio(pm, fresh)} | ` : ''}${f(dram ? t.busbw / dram : undefined)} |`,
    );
  }
  out.push('');
  return out;
}

interface SimMeasure {
  plainMs: number;
  simulatedMs: number;
  overhead: number;
  samples: number;
  pairOverheads: number[];
}

/** What tests/bench/sim-overhead.mjs returns. */
export interface SimOverhead {
  pairs: number;
  cluster: { preset: string; nodes: number; gpusPerNode: number };
  stepWall: SimMeasure;
  stepCpu: SimMeasure;
  runWall?: SimMeasure;
  runCpu?: SimMeasure;
  /** tests/bench/sim-profile.mjs: simulation code's share of the rank threads' CPU samples. */
  profile?: { busyMs: number; simulationMs: number; share: number };
}

/** The measures of tests/bench/sim-overhead.mjs, as its lines and RESULTS.md name them. */
export const SIM_LABELS = {
  stepWall: 'DDP step, slowest rank, wall',
  stepCpu: 'DDP step, all ranks, thread CPU',
  runWall: 'whole 04-ddp-overlap run, wall',
  runCpu: 'whole 04-ddp-overlap run, process CPU',
} as const;

export function formatResults(o: {
  rows: BenchRow[];
  machine: string;
  quick: boolean;
  ddp: DdpResult | null;
  sim?: SimOverhead | null;
  seconds: number;
}): string {
  const { rows } = o;
  const out: string[] = [];
  out.push('# All-reduce benchmark', '');
  out.push(
    `Generated by \`npm run bench\`${o.quick ? ' --quick' : ''} (tests/bench/run.mjs) in ${o.seconds.toFixed(0)} s, ${new Date().toISOString().slice(0, 10)}.`,
    '',
  );
  out.push(`Machine: ${o.machine}.`, '');
  out.push(
    'Each all-reduce sums float32 payloads of the given size on every rank. Time is per all-reduce: the mean over a timed loop that ends when its slowest rank ends, best of 7 loops up to 64 KB and of 3 above (the machine is shared).',
    'algbw = size / time; busbw = algbw · 2(n−1)/n (nccl-tests). memcpy = one `TypedArray.set` of the same bytes on one thread.',
    "`ring`, `two-shot`, `auto`: raw, on data already in the rank's shared region, awaited (blocking waits); `auto-async`: the same",
    'with `{async: true}` (waits yield to the event loop through `Atomics.waitAsync`). `tensor-*`: `dist.allReduce` on a tfjs CPU tensor',
    '(read in place with `await t.data()`, copied into shared memory and out into a pooled array the returned tensor keeps). `postMessage`: every rank transfers its buffer to the',
    'main thread, which sums them and transfers a copy back to each rank. "new array": one copy into a freshly allocated array of the',
    'size, the floor for returning a new tensor (first touch of fresh pages).',
    '',
  );
  for (const env of [...new Set(rows.map((r) => r.environment))]) {
    const t = targets(rows, env);
    out.push(`## ${env}`, '');
    if (t.autoRatio !== undefined) {
      out.push(
        `- 16 MB, 4 ranks: auto busbw / memcpy = **${f(t.autoRatio)}** (target ≥ 0.45), ring busbw / memcpy = **${f(t.ringRatio)}** (target ≥ 0.2).`,
      );
      out.push(`- 4 KB, 2 ranks: auto all-reduce **${f(t.latency, 1)} µs** (target ≤ 10 µs).`);
      out.push(
        `- Shared-memory algorithms not faster than postMessage at ≥ 64 KB: ${t.losses.length ? t.losses.join(', ') : '**none**'}.`,
        '',
      );
    }
    out.push(...limits(rows, env));
    out.push(...tensorPathSection(rows, env));
    const collective = (r: BenchRow) => r.method !== 'memcpy' && r.method !== 'fresh-copy';
    const methods = [
      ...new Set(rows.filter((r) => r.environment === env && collective(r)).map((r) => r.method)),
    ];
    for (const n of [
      ...new Set(rows.filter((r) => r.environment === env && collective(r)).map((r) => r.ranks)),
    ]) {
      out.push(`### ${env}, ${n} ranks: busbw GB/s (time µs)`, '');
      out.push(
        `| size | memcpy GB/s | new array µs | ${methods.join(' | ')} | auto/memcpy | ring/memcpy | auto vs postMessage | tensor-auto vs postMessage |`,
      );
      out.push(`|---:|---:|---:|${methods.map(() => '---:').join('|')}|---:|---:|---:|---:|`);
      for (const bytes of [
        ...new Set(rows.filter((r) => r.environment === env && r.ranks === n).map((r) => r.bytes)),
      ]) {
        const mem = find(rows, env, n, 'memcpy', bytes);
        const cell = (m: string) => {
          const r = find(rows, env, n, m, bytes);
          return r ? `${f(r.busbw)} (${f(r.us, 1)})` : '–';
        };
        const auto = find(rows, env, n, 'auto', bytes);
        const ring = find(rows, env, n, 'ring', bytes);
        const pm = find(rows, env, n, 'postMessage', bytes);
        const ta = find(rows, env, n, 'tensor-auto', bytes);
        const fresh = find(rows, env, n, 'fresh-copy', bytes);
        out.push(
          `| ${formatBytes(bytes)} | ${f(mem?.busbw)} | ${f(fresh?.us, 1)} | ${methods.map(cell).join(' | ')} | ${f(auto && mem ? auto.busbw / mem.busbw : undefined)} | ${f(ring && mem ? ring.busbw / mem.busbw : undefined)} | ${f(auto && pm ? pm.us / auto.us : undefined, 1)}× | ${f(ta && pm ? pm.us / ta.us : undefined, 1)}× |`,
        );
      }
      out.push('');
    }
  }
  if (o.ddp) {
    out.push('## DDP overlap (tests/bench/ddp-overlap.mjs, Node, CPU backend)', '');
    out.push(
      `${o.ddp.worldSize} ranks, ${o.ddp.params} parameters in ${o.ddp.buckets} buckets: overlapped ${f(o.ddp.overlapMs, 1)} ms/step vs all-reduce after backward ${f(o.ddp.afterBackwardMs, 1)} ms/step (×${f(o.ddp.ratio)}).`,
      '',
    );
  }
  if (o.sim) {
    out.push('## Virtual-time overhead (tests/bench/sim-overhead.mjs, Node, CPU backend)', '');
    out.push(
      `4 ranks, plain (real time) against a simulated ${o.sim.cluster.preset} cluster (${o.sim.cluster.nodes} × ${o.sim.cluster.gpusPerNode}), ${o.sim.pairs} interleaved pairs in one invocation; target ≤ 10 %.`,
      '',
      '| measure | plain (ms) | simulated (ms) | overhead (medians) | each pair |',
      '| --- | ---: | ---: | ---: | --- |',
    );
    for (const [key, label] of Object.entries(SIM_LABELS)) {
      const m = o.sim[key as keyof typeof SIM_LABELS];
      if (!m) continue;
      const pct = (x: number) => `${x >= 0 ? '+' : ''}${f(x * 100, 1)} %`;
      out.push(
        `| ${label} | ${f(m.plainMs, 1)} | ${f(m.simulatedMs, 1)} | ${pct(m.overhead)} | ${[
          ...m.pairOverheads,
        ]
          .sort((a, b) => a - b)
          .map(pct)
          .join(', ')} |`,
      );
    }
    out.push('');
    if (o.sim.profile)
      out.push(
        `Sampling profile (tests/bench/sim-profile.mjs, one simulated 04-ddp-overlap run under \`node --cpu-prof\`): simulation code is ${f(o.sim.profile.share * 100)} % of the rank threads' busy CPU samples (${f(o.sim.profile.simulationMs, 0)} of ${f(o.sim.profile.busyMs, 0)} ms). A share of samples does not depend on the machine's load, unlike the wall and CPU times above.`,
        '',
      );
  }
  return out.join('\n');
}
