/** Tensor memory one run may hold across all its ranks, as tfjs counts it (`tf.memory().numBytes`). */
export const RUN_TENSOR_BUDGET_BYTES = 2 * 2 ** 30;

/**
 * Each rank's share of the run's budget: the run as a whole stays within it at any world size (logical ranks
 * share a worker's memory as they share its thread; 8 MiB a rank at 256 ranks).
 */
export const tensorBudgetPerRank = (worldSize: number, runBudget = RUN_TENSOR_BUDGET_BYTES) =>
  Math.floor(runBudget / worldSize);

export class MemoryBudgetError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MemoryBudgetError';
  }
}

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;

type Tracked = { id: number; size: number; dtype: string; dataId: object };
type TrackingEngine = {
  state: { numBytes: number; tensorInfo: Map<object, unknown> };
  trackTensor(t: Tracked, backend: unknown): void;
  disposeTensor(t: Tracked): void;
};

/** One rank's budget: its limit, what it holds now, and what to do the first time it is exceeded. */
interface RankBudget {
  rank: number;
  budget: number;
  held: number;
  onExceeded: (e: MemoryBudgetError) => void;
  tripped: boolean;
}

/** The budget each engine enforces now: a thread hosting several ranks re-points it at every turn (rank-host.ts). */
const enforced = new WeakMap<object, { budget: RankBudget }>();

const tensorBytes = (t: Tracked) =>
  t.dtype === 'string' || t.dtype === 'complex64' ? 0 : t.size * (t.dtype === 'bool' ? 1 : 4);

/**
 * Refuses any new tensor that would take this rank past `budget` bytes of tensors, so a program
 * that forgets to dispose fails with a clear message instead of taking the browser's memory.
 * `onExceeded` runs once, before the first refusal is thrown (so a `catch` in the program cannot hide it).
 * Returns a function that makes this rank's budget the enforced one again (after another rank's turn).
 */
export function enforceTensorBudget(
  tf: typeof import('@tensorflow/tfjs'),
  rank: number,
  budget: number,
  onExceeded: (e: MemoryBudgetError) => void,
): () => void {
  const engine = tf.engine() as unknown as TrackingEngine;
  const mine: RankBudget = {
    rank,
    budget,
    held: engine.state.numBytes, // what the runtime made before this
    onExceeded,
    tripped: false,
  };
  const install = () => {
    const current = enforced.get(engine);
    if (current) current.budget = mine;
    else wrap(engine, mine);
  };
  install();
  return install;
}

/**
 * Wraps the engine's trackTensor and disposeTensor once per worker, counting bytes itself per rank (as tfjs
 * counts them, per tensor), and pins both wrappers: `tf.engine().trackTensor = …` and `engine.state.numBytes = 0`
 * removed the budget before (issue 34, item 6). What it cannot see: data a program writes to a backend
 * without making a tensor, and plain typed arrays (see the README).
 */
function wrap(engine: TrackingEngine, first: RankBudget): void {
  const current = { budget: first };
  enforced.set(engine, current);
  const track = engine.trackTensor.bind(engine);
  const dispose = engine.disposeTensor.bind(engine);
  // A tensor is charged to the rank whose turn made it, and given back to that rank when disposed. Keyed by the
  // tensor's id: a WeakMap of every tensor of 512 ranks made the garbage collector's work grow with them.
  const counted = new Map<number, { bytes: number; owner: RankBudget }>();
  const trackTensor = (t: Tracked, backend: unknown) => {
    const b = current.budget;
    const bytes = tensorBytes(t);
    if (b.held + bytes > b.budget) {
      const error = new MemoryBudgetError(
        `rank ${b.rank} would hold ${mib(b.held + bytes)} of tensors, over its share of the run's memory budget (${mib(b.budget)}): dispose tensors you no longer need (t.dispose(), tf.tidy).`,
      );
      if (!b.tripped) {
        b.tripped = true;
        b.onExceeded(error);
      }
      throw error;
    }
    track(t, backend);
    if (!counted.has(t.id)) {
      counted.set(t.id, { bytes, owner: b });
      b.held += bytes;
    }
  };
  const disposeTensor = (t: Tracked) => {
    dispose(t);
    const c = counted.get(t.id);
    if (c) {
      counted.delete(t.id);
      c.owner.held -= c.bytes;
    }
  };
  for (const [name, value] of [
    ['trackTensor', trackTensor],
    ['disposeTensor', disposeTensor],
  ] as const)
    Object.defineProperty(engine, name, { value, writable: false, configurable: false });
}
