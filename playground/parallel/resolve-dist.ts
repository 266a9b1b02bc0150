import type { Dist } from '../collectives/dist-api.ts';
import { rankContext } from '../collectives/rank-context.ts';

/** The explicit `dist` if one was passed, else this rank's own. */
export function resolveDist(dist?: Dist): Dist {
  return dist ?? rankContext().dist;
}
