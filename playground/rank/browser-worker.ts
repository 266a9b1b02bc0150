/// <reference lib="webworker" />
import * as Comlink from 'comlink';
import { browserBackends } from './backend-browser.ts';
import { prepareRank, runRank } from './rank-main.ts';
import { RANK_LOADED, type RankApi } from './rank-protocol.ts';

const api: RankApi = {
  prepare: (backend) => prepareRank(backend, browserBackends),
  run: (start) => runRank(start, browserBackends),
};
Comlink.expose(api);
// Runs after every static import has loaded: see RANK_LOADED.
postMessage(RANK_LOADED);
