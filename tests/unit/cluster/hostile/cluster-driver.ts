// Runs a cluster whose rank 0 is the hostile worker, on this thread as the page's main thread would, and
// posts the result back. The test watches this thread from outside: if it spins, the test sees silence.
import { parentPort, Worker, workerData } from 'node:worker_threads';
import * as Comlink from 'comlink';
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import {
  startClusterOn,
  type WorkerPlatform,
} from '../../../../playground/cluster/cluster-core.ts';
import type { RankApi } from '../../../../playground/rank/rank-protocol.ts';

const { code, worldSize, timeoutMs, stopAfterMs } = workerData as {
  code: string;
  worldSize: number;
  timeoutMs: number;
  stopAfterMs?: number;
};
const entries = [
  new URL('./shared-memory-writer.ts', import.meta.url),
  new URL('../../../../playground/rank/node-worker.ts', import.meta.url),
];
const platform: WorkerPlatform = {
  spawn(rank, onCrash) {
    const worker = new Worker(entries[rank === 0 ? 0 : 1]!, { name: `rank ${rank}` });
    worker.on('error', (e) => onCrash(e.message));
    return {
      api: Comlink.wrap<RankApi>(nodeEndpoint(worker)),
      terminate: () => void worker.terminate(),
    };
  },
};
const t0 = performance.now();
const running = startClusterOn(platform, { code, worldSize, backend: 'cpu', timeoutMs }, () => {});
if (stopAfterMs !== undefined) setTimeout(() => running.stop(), stopAfterMs);
const result = await running.done;
parentPort!.postMessage({
  result,
  ms: performance.now() - t0,
  errors: running.record.ranks.map((r) =>
    r.lines.filter((l) => l.kind === 'failure').map((l) => l.text),
  ),
});
