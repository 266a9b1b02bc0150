/**
 * How each PyTorch twin's printed numbers are compared with its playground's (tests/unit/twins/twin-runs.test.ts).
 * A number matches when |ts − py| ≤ abs + rel·max(|ts|, |py|); `timing` spans (wall-clock or scheduling
 * dependent, or counted differently on each side) are compared as text with the value blanked out.
 */
export interface TwinCase {
  /** Playground file in content/chapters/playgrounds/; its twin is content/twins/<same name>.py. */
  playground: string;
  abs: number;
  rel: number;
  /** Why this tolerance. */
  why: string;
  timing?: RegExp;
  /** Why CI's torch 1.13 on CPU cannot run this twin: it is only byte-compiled and name-checked (its docstring tells the reader). */
  staticOnly?: string;
  /**
   * Values the twin cannot compute on CI's PyTorch and prints as `n/a` instead: in a line where the twin printed
   * `n/a`, these spans are blanked on both sides (everything else in the line is still compared); lines without
   * `n/a` are compared in full, so on a PyTorch that has the feature nothing is skipped.
   */
  unavailable?: { spans: RegExp; why: string };
  /** tfjs backend of the playground's run: 'wasm' for the transformer blocks of chapter 7, several times faster than 'cpu'. */
  backend?: 'cpu' | 'wasm';
  /**
   * World sizes twin-runs.test.ts compares this twin at, when not every one of TWIN_WORLDS (2 and 4): a twin whose
   * lesson one world size shows runs once, to keep CI's timed suite short. Say why in `why`.
   */
  worlds?: readonly number[];
}

const EXACT = { abs: 0, rel: 0 };
const INTEGERS = 'integer-valued data: collectives are exact';
/** The time playgrounds' pages run on a simulated cluster; CI runs them in real time, like their twins. */
const MEASURED =
  'times, their ratios and the verdicts drawn from them are wall-clock facts on each side (the page shows virtual time on a simulated cluster, the twin measures its machine), not compared';

/** The world sizes a twin is compared at: its own `worlds`, else every one of `all` (TWIN_WORLDS). */
export const twinWorlds = (c: Pick<TwinCase, 'worlds'>, all: readonly number[]) => c.worlds ?? all;

export const TWIN_CASES: TwinCase[] = [
  {
    playground: '01-average-gradients.ts',
    abs: 1e-4,
    rel: 0,
    why: 'gradients printed to 4 places; float32 sums in another order may move the last digit',
  },
  {
    playground: '01-char-transformer.ts',
    abs: 1e-4,
    rel: 0,
    why: 'losses printed to 4 places after 8 Adam steps (float32 on both sides, they agree to a few 1e-7); the loss and weight gaps are float32 noise on each side and the step times and backend are wall-clock facts, not compared; the verdicts are',
    timing: /\d+ ms|\((?:cpu|wasm|webgl|webgpu|cuda)\)|gap \d(?:\.\d)?e[-+]\d+/g,
    unavailable: {
      spans:
        /(?:\d+\.\d+|n\/a) FSDP|FSDP (?:\d+ ms|\d(?:\.\d)?e[-+]\d+|n\/a)|(?<=^FSDP (?:on \d+ ranks matches one device \(tolerance 1e-4\)|units): ).*$/g,
      why: "FSDP2's fully_shard is public only from PyTorch 2.6; CI's 1.13 trains DDP and one device and prints n/a for FSDP's units, losses, time, weight gap and verdict",
    },
    backend: 'wasm',
  },
  { playground: '02-all-reduce-family.ts', ...EXACT, why: INTEGERS },
  {
    playground: '02-broadcast-scatter-gather.ts',
    abs: 1e-5,
    rel: 0,
    why: 'the printed gap is float32 noise (0 in both runs so far); the verdict is exact',
  },
  {
    playground: '02-groups-and-async.ts',
    ...EXACT,
    why: `${INTEGERS}; times, whether the async all-reduce was still in flight, whether the waiting ranks gained and whether the late rank 0 waited least are wall-clock facts, not compared (the chapter's own expect checks the playground's verdict)`,
    timing:
      /waited \d+ ms|held it \d+ ms; started async.*? ms of work, then wait\(\) held it \d+ ms|overlapped their work with it: \w+|(?<=the late rank 0 waited least: )\w+/g,
  },
  {
    playground: '02-ring-all-reduce-solution.ts',
    ...EXACT,
    why: 'byte counts are exact; times are not compared',
    timing: /[\d.]+ ms/g,
  },
  { playground: '02-ring-all-reduce-starter.ts', ...EXACT, why: INTEGERS },
  {
    playground: '03-batchnorm.ts',
    abs: 0.011,
    rel: 0,
    why: 'means printed to 2 places and a gap to 3, of float32 values that differ in the last ulp',
  },
  {
    playground: '03-data-parallel-wrapper.ts',
    abs: 1e-4,
    rel: 0,
    why: 'loss printed to 4 places; the weight gap is float32 noise on both sides (< 1e-5)',
  },
  {
    playground: '03-gradient-accumulation.ts',
    abs: 1e-5,
    rel: 0,
    why: 'the printed gaps are float32 noise on both sides; call counts and the k× verdict are exact, byte counts differ by convention (runtime counter vs ring formula) and are not compared',
    timing: /bytes sent by all-reduce \([^)]*\) \d+ → \d+/g,
  },
  {
    playground: '03-scaling-throughput.ts',
    ...EXACT,
    why: 'only the world size is compared',
    timing: /[\d.]+ samples\/s/g,
  },
  {
    playground: '03-straggler.ts',
    abs: 1e-4,
    rel: 0,
    why: `losses printed to 4 places (float32 on both sides); ${MEASURED}`,
    timing:
      /[\d.-]+ ms|[\d.]+× as long|(?<=every step lasts at least the slowest rank's compute: )\w+/g,
  },
  {
    playground: '03-sync-batchnorm-training.ts',
    abs: 1e-5,
    rel: 0.01,
    why: 'weight gaps printed to 3 significant digits',
    staticOnly: 'nn.SyncBatchNorm.forward accepts only CUDA (or PrivateUse1) tensors',
  },
  {
    playground: '03-unequal-shards.ts',
    abs: 1e-5,
    rel: 0.01,
    why: 'errors printed to 3 significant digits; the weighted error is float32 noise (< 1e-5)',
  },
  {
    playground: '04-bucket-sweep.ts',
    abs: 1e-6,
    rel: 1e-6,
    why: `the summed gradient's mean (a float64 sum) and largest value, printed to 6 places, differ only by the order of the float32 sums (a few ulps of values up to about 10); bucket sizes are this program's float32 bytes on both sides; ${MEASURED}`,
    timing: /[\d.]+ ms|\d+ GB\/s|[\d.]+× as long|(?<=small buckets are latency-bound: )\w+/g,
  },
  {
    playground: '04-communication-overhead.ts',
    ...EXACT,
    why: 'only the structure is compared',
    timing: /[\d.]+ ms|ratio: .*$/g,
  },
  {
    playground: '04-ddp-overlap.ts',
    abs: 1e-4,
    rel: 0,
    why: `losses printed to 4 places after 4 SGD steps (float32 on both sides); ${MEASURED}`,
    timing: /[\d.-]+ ms|(?<=overlap shortens the step: )\w+/g,
  },
  {
    playground: '04-ddp-vs-zero3.ts',
    abs: 1e-4,
    rel: 0,
    why: `losses printed to 4 places after 3 SGD steps (float32 on both sides); ${MEASURED}`,
    timing: /[\d.]+ ms|[\d.]+× as long|(?<=ZeRO-3's step is longer: )\w+/g,
    unavailable: {
      spans: /ZeRO-3 step .*$|(?<=^ZeRO-3's step is longer: ).*$|ZeRO-3 (?:\d+\.\d+|n\/a)$/g,
      why: "FSDP2's fully_shard (ZeRO-3 in PyTorch) is public only from PyTorch 2.6; CI's 1.13 trains DDP and prints n/a for ZeRO-3's time, verdict and loss",
    },
  },
  {
    playground: '04-gradient-bucketing.ts',
    ...EXACT,
    why: 'call counts are exact',
    timing: /[\d.]+ ms per step/g,
  },
  {
    playground: '04-manual-ddp.ts',
    abs: 1e-6,
    rel: 0,
    why: 'the printed gap is float32 noise on both sides (< 1e-6)',
  },
  {
    playground: '04-scaling-nodes.ts',
    abs: 1e-4,
    rel: 0,
    why: `gradient norms (float64 sums of float32 gradients) printed to 4 places; group sizes and node counts are exact, and with one node (CI) the node verdict is false on both sides; ${MEASURED}`,
    timing: /[\d.]+ ms|[\d,]+ (?:rows|tokens)\/s|\d+ %/g,
  },
  {
    playground: '05-zero-ledger.ts',
    ...EXACT,
    why: 'bytes held and sent are exact; the weight check is a verdict',
  },
  {
    playground: '06-fsdp-units.ts',
    ...EXACT,
    why: "not run here; where it runs, its unit, prefetch and reduce-scatter counts are exact, and its rank-0 trace lists FSDP2's profiler spans, not the playground's",
    staticOnly:
      'PyTorch 1.13 has no FSDP2: fully_shard is public in torch.distributed.fsdp from 2.6',
  },
  {
    playground: '06-fsdp-prefetch.ts',
    ...EXACT,
    why: `not run here; where it runs, the verdicts (weights identical, equal to one device) are exact; ${MEASURED}`,
    timing: /[\d.]+ ms/g,
    staticOnly:
      'PyTorch 1.13 has no FSDP2: fully_shard is public in torch.distributed.fsdp from 2.6',
  },
  {
    playground: '07-recompute-ledger.ts',
    ...EXACT,
    why: 'FLOP counts and the kept block boundaries are exact; the peaks are what each framework allocated (tf.profile vs the PyTorch profiler), not compared, only their verdict',
    timing: /peak \d+ KiB/g,
    backend: 'wasm',
  },
  {
    playground: '08-batch-and-lr.ts',
    abs: 1e-3,
    rel: 1e-5,
    why: 'losses printed to 3 places; the diverging batch-2048 run (loss in the thousands) amplifies float32 rounding to about 1e-6 relative; rates, steps and verdicts are exact',
  },
  {
    playground: '08-critical-batch.ts',
    abs: 1,
    rel: 0,
    why: `the rows are the same hash on both sides and steps, examples and rates are exact (a float32 gradient summed in another order could move a step count only if the loss crossed the target within rounding); B_simple printed to whole examples, from small differences of float32 norms, may move by 1; ${MEASURED}; run at 2 ranks only (groups of 1 and 2)`,
    timing: / *[\d.]+ m?s\b|(?<=fastest to target: ).*$/g,
    worlds: [2],
  },
  {
    playground: '09-scale-ddp-fsdp.ts',
    ...EXACT,
    why: `group sizes and node counts are exact and the weight check is a verdict; ${MEASURED}; run at 2 ranks only, where the one group is the whole job (the lesson needs a simulated cluster of many nodes, which no twin run here has)`,
    timing: /[\d.]+ ms|\d+ %/g,
    unavailable: {
      spans: /FSDP step .*$|(?<=in every group: |than DDP on \d+ GPUs: ).*$/g,
      why: "Gloo's reduce_scatter_tensor and all_gather_into_tensor arrive in PyTorch 2.3; on CI's 1.13 the twin runs DDP and prints n/a for FSDP's time, efficiency and weight check",
    },
    worlds: [2],
  },
  {
    playground: '09-stragglers.ts',
    ...EXACT,
    why: `the delays are the same draws on both sides and the slowest-of-N expectation is exact arithmetic, compared to the printed digit; ${MEASURED}; run at 2 ranks only (groups of 1 and 2), since every rank sleeps its steps`,
    timing: /[\d.]+ ms,(?= [\d.]+×)|[\d.]+×(?= one GPU)/g,
    worlds: [2],
  },
  {
    playground: '09-failures.ts',
    ...EXACT,
    why: `the failure is the same draw on both sides and its costs are the same arithmetic, compared to the printed digit; the step time and the step the failure falls at are ${MEASURED.replace(/^times, their ratios and the verdicts drawn from them are /, '')}; run at 2 ranks only`,
    timing: /[\d.]+ ms|(?<=dies at step )[\d,]+/g,
    worlds: [2],
  },
  {
    playground: '09-clip-sharded.ts',
    abs: 1e-4,
    rel: 1e-6,
    why: 'norms of 25 to 75 printed to 4 places, float32 sums in another order may move the last digit; verdicts are exact',
  },
  {
    playground: '09-hsdp.ts',
    ...EXACT,
    why: `mesh shapes and model-state bytes are exact arithmetic and the weight check is a verdict; ${MEASURED}; run at 2 ranks only (one node: HSDP's mesh is 1 × 2)`,
    timing: /[\d.]+ ms/g,
    unavailable: {
      spans: /(?<=step )[\d.]+ ms$|(?<=step )n\/a$|(?<=after one step: ).*$/g,
      why: "Gloo's reduce_scatter_tensor and all_gather_into_tensor arrive in PyTorch 2.3; on CI's 1.13 the twin prints n/a for both steps and the weight check",
    },
    worlds: [2],
  },
  {
    playground: '09-reshard-checkpoint.ts',
    ...EXACT,
    why: "not run here; where it runs, the saved files, the element ranges each rank reads and the verdict are exact (DCP's plan on both sides' shard boundaries, torch.chunk's as the playground's)",
    staticOnly:
      'PyTorch 1.13 has no torch.distributed.checkpoint (DCP) and no public DTensor: written against 2.6',
  },
  {
    playground: '10-compress-gradients.ts',
    abs: 1e-3,
    rel: 0,
    why: 'errors and distances printed to 3 places (bf16 error to 2 digits), losses to 4, after 12 float32 SGD steps on both sides (equal digit for digit in every run so far); byte counts are exact; PowerSGD runs through PyTorch’s powerSGD_hook on a DDP model (its Q memory set to the playground’s Q), bf16 through the hook’s arithmetic written out, since 1.13 refuses bf16_compress_hook on Gloo; times are wall-clock facts, not compared; run at 2 ranks only (the hooks do the same per rank at any world, and 4 ranks doubles its time on CI)',
    timing: /[\d.]+ ms/g,
    worlds: [2],
  },
  {
    playground: '10-quantized-all-gather.ts',
    abs: 0,
    rel: 0.06,
    why: `the same float32 quantization on both sides (round half to even in tf.round and torch.round); errors printed to 2 significant digits and their ratio to 1 place, equal digit for digit so far, but a norm summed in another order may move a last digit (6 %); ${MEASURED}; run at 4 ranks only, as on its page (at 2 ranks hpZ's node is the whole world)`,
    timing: /[\d.]+ ms|(?<=hpZ's backward gather is faster: )\w+/g,
    worlds: [4],
  },
  {
    playground: '10-fp8-all-gather.ts',
    abs: 1e-3,
    rel: 0,
    why: `not run here; where it runs, the same casts on both sides (round to nearest even after a clamp to ±max), errors printed to 2 significant digits and worst blocks to 2 places; the amax all-reduce's bytes are counted differently on each side (the verdicts exclude them); ${MEASURED}`,
    timing: /[\d.]+ ms|\d+ bytes \([\d.]+× fp32\)/g,
    staticOnly:
      'PyTorch 1.13 has no float8 dtype: torch.float8_e4m3fn and torch.float8_e5m2 exist from 2.1',
  },
  {
    playground: '10-local-sgd.ts',
    abs: 1e-3,
    rel: 0,
    why: `losses printed to 3 places after 48 float32 SGD steps on both sides (equal digit for digit so far); byte counts and their ratios are exact; ${MEASURED}; run at 2 ranks only (averaging every H steps is the same code at any world)`,
    timing: /[\d.]+ ms|(?<=synchronizing every \d+ steps is faster: )\w+/g,
    worlds: [2],
  },
  { playground: 'lab-all-gather.ts', ...EXACT, why: INTEGERS },
  { playground: 'lab-all-reduce.ts', ...EXACT, why: INTEGERS },
  { playground: 'lab-all-to-all.ts', ...EXACT, why: INTEGERS },
  {
    playground: 'lab-async-barrier.ts',
    ...EXACT,
    why: 'whether the all-reduce finished during the matmul is a race',
    timing: /done yet\? \w+/g,
  },
  { playground: 'lab-broadcast.ts', ...EXACT, why: INTEGERS },
  { playground: 'lab-reduce-scatter.ts', ...EXACT, why: INTEGERS },
  { playground: 'lab-scatter-gather.ts', ...EXACT, why: INTEGERS },
];

const NUMBER = /[-+]?\d+(?:\.\d+)?(?:e[-+]?\d+)?/gi;

/** Differences between two runs' lines for one rank, as readable messages; empty when they agree. */
export function compareLines(
  ts: string[],
  py: string[],
  c: Pick<TwinCase, 'abs' | 'rel' | 'timing' | 'unavailable'>,
): string[] {
  const problems: string[] = [];
  if (ts.length !== py.length)
    problems.push(`${ts.length} lines from TypeScript, ${py.length} from PyTorch`);
  const mask = (line: string) => (c.timing ? line.replace(c.timing, '‹timing›') : line);
  const skip = (line: string, absent: boolean) =>
    absent && c.unavailable ? line.replace(c.unavailable.spans, '‹n/a›') : line;
  for (let i = 0; i < Math.min(ts.length, py.length); i++) {
    const absent = py[i]!.includes('n/a');
    const [a, b] = [mask(skip(ts[i]!, absent)), mask(skip(py[i]!, absent))];
    if (a.replace(NUMBER, '#') !== b.replace(NUMBER, '#')) {
      problems.push(`line ${i + 1} differs in text:\n  ts: ${ts[i]}\n  py: ${py[i]}`);
      continue;
    }
    const [na, nb] = [a.match(NUMBER) ?? [], b.match(NUMBER) ?? []];
    na.forEach((x, k) => {
      const [u, v] = [Number(x), Number(nb[k])];
      if (Math.abs(u - v) > (c.abs + c.rel * Math.max(Math.abs(u), Math.abs(v))) * (1 + 1e-9))
        problems.push(
          `line ${i + 1}, number ${k + 1}: ${x} vs ${nb[k]}\n  ts: ${ts[i]}\n  py: ${py[i]}`,
        );
    });
  }
  return problems;
}
