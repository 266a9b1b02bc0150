/** Tensor memory one run may hold across all its ranks, as tfjs counts it (`tf.memory().numBytes`). */
export const RUN_TENSOR_BUDGET_BYTES = 2 * 2 ** 30;
const MIN_RANK_BUDGET_BYTES = 128 * 2 ** 20;

/** Each rank's share of the run's budget (of the default one, at least 128 MiB). */
export const tensorBudgetPerRank = (worldSize: number, runBudget?: number) =>
  runBudget === undefined
    ? Math.max(MIN_RANK_BUDGET_BYTES, Math.floor(RUN_TENSOR_BUDGET_BYTES / worldSize))
    : Math.floor(runBudget / worldSize);

export class MemoryBudgetError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MemoryBudgetError';
  }
}

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;

type Tracked = { size: number; dtype: string; dataId: object };
type TrackingEngine = {
  state: { numBytes: number; tensorInfo: Map<object, unknown> };
  trackTensor(t: Tracked, backend: unknown): void;
  disposeTensor(t: Tracked): void;
};

/** What the budget checks against now: the run's rank, its share, and who hears of the first refusal. */
let current:
  | { rank: number; budget: number; onExceeded: (e: MemoryBudgetError) => void; tripped: boolean }
  | undefined;

const tensorBytes = (t: Tracked) =>
  t.dtype === 'string' || t.dtype === 'complex64' ? 0 : t.size * (t.dtype === 'bool' ? 1 : 4);

/**
 * Wraps the engine's trackTensor and disposeTensor once per worker, counting bytes itself (as tfjs counts
 * them, per tensor), and pins both wrappers: `tf.engine().trackTensor = …` and `engine.state.numBytes = 0`
 * removed the budget before (issue 34, item 6). What it cannot see: data a program writes to a backend
 * without making a tensor, and plain typed arrays (see the README).
 */
function install(engine: TrackingEngine): void {
  const track = engine.trackTensor.bind(engine);
  const dispose = engine.disposeTensor.bind(engine);
  const counted = new WeakMap<Tracked, number>();
  let held = engine.state.numBytes; // what the runtime made before this
  const trackTensor = (t: Tracked, backend: unknown) => {
    const bytes = tensorBytes(t);
    const b = current;
    if (b && held + bytes > b.budget) {
      const error = new MemoryBudgetError(
        `rank ${b.rank} would hold ${mib(held + bytes)} of tensors, over its share of the run's memory budget (${mib(b.budget)}): dispose tensors you no longer need (t.dispose(), tf.tidy).`,
      );
      if (!b.tripped) {
        b.tripped = true;
        b.onExceeded(error);
      }
      throw error;
    }
    track(t, backend);
    if (!counted.has(t)) {
      counted.set(t, bytes);
      held += bytes;
    }
  };
  const disposeTensor = (t: Tracked) => {
    dispose(t);
    const bytes = counted.get(t);
    if (bytes !== undefined) {
      counted.delete(t);
      held -= bytes;
    }
  };
  for (const [name, value] of [
    ['trackTensor', trackTensor],
    ['disposeTensor', disposeTensor],
  ] as const)
    Object.defineProperty(engine, name, { value, writable: false, configurable: false });
}

const installed = new WeakSet<object>();

/**
 * Refuses any new tensor that would take this rank past `budget` bytes of tensors, so a program
 * that forgets to dispose fails with a clear message instead of taking the browser's memory.
 * `onExceeded` runs once, before the first refusal is thrown (so a `catch` in the program cannot hide it).
 */
export function enforceTensorBudget(
  tf: typeof import('@tensorflow/tfjs'),
  rank: number,
  budget: number,
  onExceeded: (e: MemoryBudgetError) => void,
): void {
  const engine = tf.engine() as unknown as TrackingEngine;
  current = { rank, budget, onExceeded, tripped: false };
  if (installed.has(engine)) return;
  installed.add(engine);
  install(engine);
}
