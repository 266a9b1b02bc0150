import * as Comlink from 'comlink';
import type { RankApi } from '../rank/rank-protocol.ts';
import type { BackendChoice, ClusterEvent, RunOptions } from '../contract/protocol.ts';
import {
  prepareRanksOn,
  startClusterOn,
  type PreparedRanks,
  type WorkerPlatform,
} from './cluster-core.ts';
import type { RunningCluster } from './protocol.ts';

export { compileAhead, hostWorkers } from './cluster-core.ts';

/** Ranks as dedicated module Web Workers (tfjs WebGPU does not work in shared workers). */
const browserWorkers: WorkerPlatform = {
  spawn(rank, onCrash, count = 1) {
    const worker = new Worker(new URL('../rank/browser-worker.ts', import.meta.url), {
      type: 'module',
      name: count === 1 ? `rank ${rank}` : `ranks ${rank}–${rank + count - 1}`,
    });
    worker.addEventListener('error', (e) => {
      e.preventDefault();
      onCrash(e.message || 'the worker failed to load');
    });
    const api = Comlink.wrap<RankApi>(worker);
    return {
      api,
      // Released first: Comlink's FinalizationRegistry holds the worker until the proxy is collected, and a
      // call left pending by the end of a run makes the worker hold the proxy, so neither (nor the run's
      // 16 MiB shared memory) was ever freed: 16 MiB more per run (issue 34, item 9).
      terminate: () => {
        api[Comlink.releaseProxy]();
        worker.terminate();
      },
    };
  },
};

/** The page's one set of warm ranks: a page runs one world at a time, so one set serves whichever playground runs next. */
let warm: PreparedRanks | undefined;

const isolationError = () =>
  new Error(
    'This page is not cross-origin isolated, so SharedArrayBuffer is unavailable: reload the page (the isolation service worker needs one reload) or serve it with COOP/COEP headers.',
  );

/**
 * Prepares the next run's ranks in the background (workers loaded, tfjs and the backend initialised, shared
 * memory allocated); a set for another world size or backend is terminated first. Resolves when they are ready.
 */
export function warmRanks(worldSize: number, backend: BackendChoice): Promise<void> {
  if (!globalThis.crossOriginIsolated) return Promise.reject(isolationError());
  if (warm?.worldSize === worldSize && warm.backend === backend && !warm.broken) return warm.ready;
  coolRanks();
  warm = prepareRanksOn(browserWorkers, worldSize, backend);
  return warm.ready;
}

/** Terminates the warm ranks, if any (the page hid, or the reader chose another world). */
export function coolRanks(): void {
  warm?.dispose();
  warm = undefined;
}

/** The world size and backend the warm ranks were prepared for, if there are any. */
export function warmWorld(): { worldSize: number; backend: BackendChoice } | undefined {
  return warm && { worldSize: warm.worldSize, backend: warm.backend };
}

export function startCluster(
  options: RunOptions,
  onEvent: (e: ClusterEvent) => void,
): RunningCluster {
  if (!globalThis.crossOriginIsolated) throw isolationError();
  return startClusterOn(browserWorkers, options, onEvent, (worldSize, backend) => {
    const set = warm;
    warm = undefined;
    if (set?.worldSize === worldSize && set.backend === backend && !set.broken) return set;
    set?.dispose(); // the wrong world, or a set that broke while warm: free it, this run starts fresh workers
    return undefined;
  });
}
