/// <reference lib="webworker" />
import * as Comlink from 'comlink';
import { browserBackends } from './backend-browser.ts';
import { prepareRank, runRank } from './rank-main.ts';
import type { RankApi } from './rank-protocol.ts';
import { sealBrowserScope, sealedNotice } from './seal-browser-scope.ts';

sealBrowserScope();
const api: RankApi = {
  prepare: (backend, world) => prepareRank(backend, world, browserBackends),
  run: (start) => runRank(start, { ...browserBackends, sealedNotice }),
};
Comlink.expose(api);
