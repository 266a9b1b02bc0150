// A benchmark rank in a Node worker_thread.
import { parentPort } from 'node:worker_threads';
import { serveBenchRank, type BenchMessage } from './bench-rank.ts';

serveBenchRank({
  post: (m, transfer) => parentPort!.postMessage(m, transfer as never),
  onMessage: (h) => parentPort!.on('message', (m: BenchMessage) => h(m)),
});
