/**
 * The runtime's contract, defined once: every other folder of playground/ (and the site) imports these
 * words from here. Each union is derived from an `as const` list, and the argument checks use the same
 * list, so a new backend, op or collective is one edit.
 */

/** tfjs backends in the book's order of preference: WebGPU, then WASM, then CPU. */
export const BACKENDS = ['webgpu', 'wasm', 'cpu'] as const;
export type Backend = (typeof BACKENDS)[number];
/** What a run may ask for: a backend, or 'auto' (the first of BACKENDS that starts). */
export const BACKEND_CHOICES = ['auto', ...BACKENDS] as const;
export type BackendChoice = (typeof BACKEND_CHOICES)[number];

/** Element types the collectives move (4 bytes each). */
export const DTYPES = ['float32', 'int32'] as const;
export type Dtype = (typeof DTYPES)[number];

/** Reduction ops, as torch.distributed.ReduceOp (AVG as in NCCL ≥ 2.10). */
export const REDUCE_OPS = ['sum', 'avg', 'max', 'min', 'prod'] as const;
export type ReduceOp = (typeof REDUCE_OPS)[number];

/** All-reduce algorithms a caller may request; 'auto' picks by size (collectives/auto-algorithm.ts). */
export const ALL_REDUCE_ALGORITHMS = ['auto', 'ring', 'two-shot'] as const;
export type AllReduceAlgorithm = (typeof ALL_REDUCE_ALGORITHMS)[number];
/** The algorithm a call actually ran (what its descriptor and trace carry). */
export type Algorithm = Exclude<AllReduceAlgorithm, 'auto'>;

/** Collective calls every member of a group makes together; peers compare them to catch mismatches. */
export const COLLECTIVE_KINDS = [
  'allReduce',
  'reduceScatter',
  'allGather',
  'broadcast',
  'reduce',
  'scatter',
  'gather',
  'barrier',
] as const;
export type CollectiveKind = (typeof COLLECTIVE_KINDS)[number];
export const POINT_TO_POINT_KINDS = ['send', 'recv'] as const;
/** Everything the runtime counts bytes for. */
export const COMM_KINDS = [...COLLECTIVE_KINDS, ...POINT_TO_POINT_KINDS] as const;
export type CommKind = (typeof COMM_KINDS)[number];
/** Everything a timeline draws: communication, and compute spans recorded by the training wrappers. */
export const TRACE_KINDS = [...COMM_KINDS, 'compute'] as const;
export type TraceKind = (typeof TRACE_KINDS)[number];

/**
 * Largest world a run may start, the one limit every check reads (checkWorldSize): 128 nodes of 8 GPUs. Beyond
 * the machine's cores the ranks run as logical ranks sharing the workers (rank/rank-host.ts); every rank is
 * still a participant in the shared memory, which grows with the world, not its square
 * (collectives/layout.ts: about 110 MB at 1,024 ranks).
 */
export const MAX_WORLD_SIZE = 1024;

/** Throws unless `worldSize` is a world a run may start; `what` names it in the message. */
export function checkWorldSize(worldSize: unknown, what = 'worldSize'): number {
  if (
    typeof worldSize !== 'number' ||
    !Number.isInteger(worldSize) ||
    worldSize < 1 ||
    worldSize > MAX_WORLD_SIZE
  )
    throw new RangeError(
      `${what} must be a whole number from 1 to ${MAX_WORLD_SIZE}, got ${String(worldSize)}`,
    );
  return worldSize;
}
/** Default wall-clock limit of a run. */
export const DEFAULT_TIMEOUT_MS = 60_000;
/** Lines a run keeps per rank (output and errors); a flood beyond this is counted, not kept. */
export const MAX_LOG_LINES = 100_000;
/** Trace events a run keeps for its timeline; a long training loop traces far more than a page can draw. */
export const MAX_TRACE_EVENTS = 10_000;

/** Bytes a rank sent and received, and calls it made, for one kind. */
export interface CommCounter {
  sent: number;
  received: number;
  calls: number;
}
/** A rank's counters by kind; kinds it never used are absent. */
export type CommStats = Partial<Record<CommKind, CommCounter>>;

/** One collective step (or compute span), recorded by the runtime so the page can draw a timeline. */
export interface TraceEvent {
  rank: number;
  kind: TraceKind;
  algorithm?: string;
  step?: number;
  /** Peer rank for a ring step or point-to-point call. */
  peer?: number;
  bytes: number;
  /** Milliseconds since the run started (performance.now() based, shared origin across ranks). */
  start: number;
  end: number;
  label?: string;
}

/** Chart kinds a program may draw with `plot`: a line (x numeric, e.g. step) or bars (x a category label). */
export const PLOT_KINDS = ['line', 'bar'] as const;
export type PlotKind = (typeof PLOT_KINDS)[number];
/** Plot points a run keeps (all ranks together); more are counted, not kept, like log lines. */
export const MAX_PLOT_POINTS = 20_000;
/** Characters kept of a chart or series name (a name is a label, not a channel for text). */
export const MAX_PLOT_NAME = 80;

/** One point a rank drew: chart `chart`, series `series` (its rank's, unless the program named one). */
export interface PlotPoint {
  rank: number;
  kind: PlotKind;
  chart: string;
  series: string;
  /** A number (step, time) for a line; a category label for a bar. */
  x: number | string;
  y: number;
}

/** The two streams of a rank in virtual time: its program's kernels, and NCCL's communication stream. */
export const VIRTUAL_LANES = ['compute', 'comm'] as const;
export type VirtualLane = (typeof VIRTUAL_LANES)[number];

/** Virtual trace spans a run keeps for its timeline (compute spans are merged per phase, so a step is a few spans). */
export const MAX_VIRTUAL_TRACE_EVENTS = 20_000;

/**
 * Run the program as if on a GPU cluster (playground/simulation): every rank keeps a virtual clock, so
 * times are the model's, the same on any machine under any load. `nodes × gpusPerNode` must equal `worldSize`.
 */
export interface SimulatedClusterOptions {
  /** A preset id from playground/simulation/presets.ts, e.g. 'h100-ndr' (`npm run ranks -- presets`). */
  preset: string;
  nodes: number;
  gpusPerNode: number;
  /** Compute on these ranks takes `factor` (≥ 1) times longer: a straggler, e.g. `{ 3: 2 }`. */
  slowdown?: Readonly<Record<number, number>>;
  /** Every compute span stretched by a factor in [1, 1 + amplitude), drawn from `seed` (on `ranks` only, if given). */
  jitter?: { amplitude: number; seed: number; ranks?: readonly number[] };
  /** This rank stops when it begins step `atStep` (0-based); its peers' next collective times out, NCCL-style. */
  deadRank?: { rank: number; atStep: number };
  /** Virtual seconds a collective waits for missing ranks; default 600 (PyTorch's NCCL default). */
  collectiveTimeoutSeconds?: number;
  /** Fraction of peak FLOP/s a kernel reaches in the roofline (0, 1]; default 0.5. */
  efficiency?: number;
}

/** What a virtual span is, for the timeline's colours, labels and legend. */
export const VIRTUAL_SPAN_KINDS = [
  'forward',
  'backward',
  'optimizer',
  'compute',
  'collective',
  'p2p',
  'idle',
] as const;
export type VirtualSpanKind = (typeof VIRTUAL_SPAN_KINDS)[number];

/** One span of virtual time on one rank's lane, in seconds since the run started. */
export interface VirtualTraceEvent {
  rank: number;
  lane: VirtualLane;
  /** Human label: 'forward', 'backward (layer 3)', 'bucket 2 all-reduce', 'unit 4 all-gather', 'optimizer'. */
  name: string;
  start: number;
  end: number;
  /** The step the span belongs to (0-based; steps end at `dist.simulation.endStep()` or a trainer's step()). */
  step: number;
  /** Modelled bytes of a collective (after any charge-as scaling). */
  bytes?: number;
  kind?: VirtualSpanKind;
  /** Layer, bucket or FSDP unit index the span belongs to, when it has one. */
  index?: number;
  /** For collectives: the collective ('all-reduce', 'all-gather', 'reduce-scatter', 'broadcast', …) and how the model timed it. */
  collective?: string;
  /** 'ring' | 'tree' | 'nvls' | … */
  algorithm?: string;
  /** 'LL' | 'LL128' | 'Simple' */
  protocol?: string;
  busGBps?: number;
  /** The configuration the program declared when the span ran (see VirtualStepRank.configuration). */
  configuration?: string;
}

/** One rank's view of one step, in virtual seconds. */
export interface VirtualStepRank {
  rank: number;
  step: number;
  start: number;
  end: number;
  /** Kernel time charged to the compute stream (after slowdown and jitter). */
  computeSeconds: number;
  /** Modelled collective durations on the communication stream. */
  commSeconds: number;
  /**
   * Time the compute stream waited while this rank's communication was running: what overlap did not
   * hide. Never more than commSeconds.
   */
  exposedCommSeconds: number;
  /**
   * Time the compute stream waited for peers that had not arrived yet (a straggler), not communication.
   * Step time = compute + exposed communication + this, on every rank.
   */
  peerWaitSeconds?: number;
  /** Model FLOPs of this step on this rank: 6 × params × tokens / world when charged as a model, else the matmul/conv FLOPs its kernels did. */
  modelFlops: number;
  /** The GPU's peak FLOP/s the MFU is taken against (bf16 tensor cores). */
  peakFlops: number;
  /** What the step was charged as, when the program asked (say it on the page). */
  chargedAs?: {
    params: number;
    tokensPerStep: number;
    /** The named architecture whose parameter list cut the buckets and units, e.g. 'llama-2-7b'. */
    model?: string;
    /** Which collective sizes were charged, e.g. '515 DDP buckets (1 MiB first, 25 MiB cap), 13.5 GB'. */
    sizes?: string;
  };
  /**
   * The configuration the program declared with `dist.simulation.configuration(name)` when the step ran
   * (e.g. 'overlap off', 'overlap on'): reports take means per configuration, never across them.
   */
  configuration?: string;
}

/** A step of the whole world: a synchronous step ends when the slowest rank ends it. */
export interface VirtualStepReport {
  step: number;
  /** Max over ranks of end − start. */
  seconds: number;
  /** Max over ranks of each part. */
  computeSeconds: number;
  commSeconds: number;
  exposedCommSeconds: number;
  /** Model FLOPs utilisation: Σ modelFlops / (world × peak × seconds); null when no FLOPs were charged. */
  mfu: number | null;
  ranks: VirtualStepRank[];
}

export const LOG_LEVELS = ['log', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** What a rank reports to the cluster, in order; the last event a rank sends is its `exit`. */
export type ClusterEvent =
  | { type: 'backend'; rank: number; backend: Backend; reason?: string }
  | { type: 'log'; rank: number; level: LogLevel; text: string; time: number }
  | { type: 'error'; rank: number; message: string; line?: number; column?: number; time: number }
  | { type: 'exit'; rank: number; ok: boolean; time: number }
  | { type: 'trace'; rank: number; events: TraceEvent[] }
  | { type: 'plot'; rank: number; points: PlotPoint[] }
  | { type: 'virtual-trace'; rank: number; events: VirtualTraceEvent[] }
  | { type: 'virtual-step'; rank: number; report: VirtualStepRank };
export const CLUSTER_EVENT_TYPES = [
  'backend',
  'log',
  'error',
  'exit',
  'trace',
  'plot',
  'virtual-trace',
  'virtual-step',
] as const satisfies readonly ClusterEvent['type'][];

export interface RunOptions {
  /** The reader's TypeScript program (ES module, top-level await allowed). */
  code: string;
  /** Number of ranks, 1..MAX_WORLD_SIZE. */
  worldSize: number;
  /** 'auto' tries WebGPU (real adapter only), then WASM, then CPU. */
  backend?: BackendChoice;
  /** Wall-clock limit for the whole run; default DEFAULT_TIMEOUT_MS. */
  timeoutMs?: number;
  /** Code appended after the reader's program on every rank (exercise checks). */
  checks?: string;
  /** Tensor bytes the whole run may hold, shared by its ranks; default 2 GiB (see rank/memory-budget.ts). */
  tensorBudgetBytes?: number;
  /** Run in virtual time on a simulated cluster; absent: a real-time run on this machine. */
  cluster?: SimulatedClusterOptions;
  /**
   * Most worker threads the ranks may use; default the machine's cores. A world larger than this runs as
   * logical ranks sharing the workers (playground/rank/rank-host.ts), computing the same numbers.
   */
  workers?: number;
}

export const RUN_END_REASONS = [
  'finished',
  'stopped',
  'timeout',
  'error',
  'compile-error',
] as const;
export type RunEndReason = (typeof RUN_END_REASONS)[number];

export interface RunResult {
  ok: boolean;
  reason: RunEndReason;
  /** For compile errors (reported before any rank starts) and time-outs. */
  error?: { message: string; line?: number; column?: number };
  durationMs: number;
}

/** True when `value` is one of `list` (narrows it to the list's union). */
export function isOneOf<T extends string>(list: readonly T[], value: unknown): value is T {
  return typeof value === 'string' && (list as readonly string[]).includes(value);
}

/** "'a', 'b' or 'c'": how an error message lists the allowed words. */
export function listWords(list: readonly string[]): string {
  const quoted = list.map((w) => `'${w}'`);
  return quoted.length < 2
    ? quoted.join('')
    : `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}`;
}
