/// <reference lib="webworker" />
import * as Comlink from 'comlink';
import { browserBackends } from './backend-browser.ts';
import { runRank } from './rank-main.ts';
import type { RankApi } from './rank-protocol.ts';

const api: RankApi = { run: (start) => runRank(start, browserBackends) };
Comlink.expose(api);
