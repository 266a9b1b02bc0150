import { Worker } from 'node:worker_threads';
import * as Comlink from 'comlink';
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import type { RankApi } from '../rank/rank-protocol.ts';
import type { ClusterEvent, RunOptions, RunResult } from '../contract/protocol.ts';
import { startClusterOn, type WorkerPlatform } from './cluster-core.ts';
import type { RunningCluster } from './protocol.ts';
import type { RunRecord } from './run-record.ts';

const rankEntry = new URL('../rank/node-worker.ts', import.meta.url);

/** Ranks as Node worker_threads: the same runtime code the browser runs in Web Workers. */
const nodeWorkers: WorkerPlatform = {
  spawn(rank, onCrash, count = 1) {
    const name = count === 1 ? `rank ${rank}` : `ranks ${rank}–${rank + count - 1}`;
    const worker = new Worker(rankEntry, { name });
    worker.on('error', (e) => onCrash(e.message));
    worker.on('exit', (code) => {
      if (code !== 0) onCrash(`worker exited with code ${code}`);
    });
    return {
      api: Comlink.wrap<RankApi>(nodeEndpoint(worker)),
      terminate: () => void worker.terminate(),
    };
  },
};

export function startCluster(
  options: RunOptions,
  onEvent: (e: ClusterEvent) => void = () => {},
): RunningCluster {
  return startClusterOn(nodeWorkers, options, onEvent);
}

/** Runs a program to the end: its result, its record, and every event in arrival order (the record's). */
export async function runProgram(
  options: RunOptions,
  onEvent?: (e: ClusterEvent) => void,
): Promise<{ result: RunResult; events: ClusterEvent[]; record: RunRecord }> {
  const running = startCluster(options, (e) => onEvent?.(e));
  const result = await running.done;
  return { result, events: running.record.events, record: running.record };
}
