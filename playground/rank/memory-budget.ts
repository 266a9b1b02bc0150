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

type TrackingEngine = {
  state: { numBytes: number };
  trackTensor(t: { size: number; dtype: string }, backend: unknown): void;
};

/** One rank's budget: its limit, and what to do the first time it is exceeded. */
interface RankBudget {
  rank: number;
  budget: number;
  onExceeded: (e: MemoryBudgetError) => void;
  tripped: boolean;
}

/** The budget each engine enforces now: a thread hosting several ranks re-points it at every turn (rank-host.ts). */
const enforced = new WeakMap<object, { budget: RankBudget }>();

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
  const mine: RankBudget = { rank, budget, onExceeded, tripped: false };
  const install = () => {
    const current = enforced.get(engine);
    if (current) current.budget = mine;
    else wrap(engine, mine);
  };
  install();
  return install;
}

function wrap(engine: TrackingEngine, first: RankBudget): void {
  const current = { budget: first };
  enforced.set(engine, current);
  const track = engine.trackTensor.bind(engine);
  engine.trackTensor = (t, backend) => {
    const b = current.budget;
    const bytes =
      t.dtype === 'string' || t.dtype === 'complex64' ? 0 : t.size * (t.dtype === 'bool' ? 1 : 4);
    if (engine.state.numBytes + bytes > b.budget) {
      const error = new MemoryBudgetError(
        `rank ${b.rank} would hold ${mib(engine.state.numBytes + bytes)} of tensors, over its share of the run's memory budget (${mib(b.budget)}): dispose tensors you no longer need (t.dispose(), tf.tidy).`,
      );
      if (!b.tripped) {
        b.tripped = true;
        b.onExceeded(error);
      }
      throw error;
    }
    track(t, backend);
  };
}
