/**
 * The module a reader's program gets for `import … from 'ranks'`: this rank's `dist` next to the
 * data-parallel training API. The generated editor typings come from this file.
 */
import type { Dist } from '../collectives/dist-api.ts';
import { rankContext } from '../collectives/rank-context.ts';

export type {
  Dist,
  ReduceOp,
  AllReduceAlgorithm,
  Work,
  ProcessGroupHandle,
  CommStats,
  Simulation,
  ChargeAs,
  ActualSize,
  SimulatedClusterOptions,
} from '../collectives/dist-api.ts';
export * from '../parallel/index.ts';
export { plot } from './plot-api.ts';
export type { PlotOptions } from './plot-api.ts';

/**
 * This rank's process group, shaped like `torch.distributed`: `dist.rank`, `dist.worldSize`,
 * `await dist.allReduce(t, { op: 'avg' })`, `dist.allReduce(t, { async: true }).wait()`, `dist.newGroup([0, 1])`.
 * Collectives never dispose their inputs; every tensor they return is new and belongs to the caller.
 */
export const dist: Dist = new Proxy({} as Dist, {
  get(_target, key) {
    const d = rankContext().dist;
    const value = Reflect.get(d, key, d);
    return typeof value === 'function' ? value.bind(d) : value;
  },
  has: (_target, key) => key in rankContext().dist,
  ownKeys: () => Reflect.ownKeys(rankContext().dist),
  getOwnPropertyDescriptor: (_target, key) => {
    const d = Reflect.getOwnPropertyDescriptor(rankContext().dist, key);
    return d ? { ...d, configurable: true } : undefined;
  },
});
