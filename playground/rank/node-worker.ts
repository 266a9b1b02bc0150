import { parentPort } from 'node:worker_threads';
import * as Comlink from 'comlink';
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import { nodeBackends } from './backend-node.ts';
import { prepareRank, runRank } from './rank-main.ts';
import type { RankApi } from './rank-protocol.ts';
import { sealNodeRank } from './seal-node-rank.ts';

if (!parentPort) throw new Error('node-worker.ts runs only as a worker thread');
sealNodeRank();
const api: RankApi = {
  prepare: (backend, world) => prepareRank(backend, world, nodeBackends),
  run: (start) => runRank(start, nodeBackends),
};
Comlink.expose(api, nodeEndpoint(parentPort));
