// A rank worker that got hold of the shared memory (as a rank could through `dist` before issue 19) and
// leaves the world's poison word at "a reason is being written", then reports a failure and hangs.
import { parentPort } from 'node:worker_threads';
import * as Comlink from 'comlink';
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import { H_POISON } from '../../../../playground/collectives/layout.ts';
import type { SharedWorld } from '../../../../playground/collectives/shared-world.ts';
import type { RankApi, RankStart } from '../../../../playground/rank/rank-protocol.ts';

let world: SharedWorld | undefined;
const api: RankApi = {
  async prepare(_backend, w) {
    world = w;
  },
  async run(start: RankStart) {
    const words = new Int32Array(world!.memory.buffer);
    Atomics.store(words, H_POISON, 2);
    start.events.postMessage({
      type: 'error',
      rank: start.rank,
      message: 'hostile rank wrote the poison word',
      time: 0,
    });
    start.events.postMessage({ type: 'exit', rank: start.rank, ok: false, time: 0 });
    await new Promise(() => {});
  },
};
Comlink.expose(api, nodeEndpoint(parentPort!));
