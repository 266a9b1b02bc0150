import * as Comlink from 'comlink';
import type { RankApi } from '../rank/rank-protocol.ts';
import type { ClusterEvent, RunOptions } from '../contract/protocol.ts';
import { startClusterOn, type WorkerPlatform } from './cluster-core.ts';
import type { RunningCluster } from './protocol.ts';

/** Ranks as dedicated module Web Workers (tfjs WebGPU does not work in shared workers). */
const browserWorkers: WorkerPlatform = {
  spawn(rank, onCrash) {
    const worker = new Worker(new URL('../rank/browser-worker.ts', import.meta.url), {
      type: 'module',
      name: `rank ${rank}`,
    });
    worker.addEventListener('error', (e) => {
      e.preventDefault();
      onCrash(e.message || 'the worker failed to load');
    });
    return { api: Comlink.wrap<RankApi>(worker), terminate: () => worker.terminate() };
  },
};

export function startCluster(
  options: RunOptions,
  onEvent: (e: ClusterEvent) => void,
): RunningCluster {
  if (!globalThis.crossOriginIsolated) {
    throw new Error(
      'This page is not cross-origin isolated, so SharedArrayBuffer is unavailable: reload the page (the isolation service worker needs one reload) or serve it with COOP/COEP headers.',
    );
  }
  return startClusterOn(browserWorkers, options, onEvent);
}
