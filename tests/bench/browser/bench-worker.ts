// A benchmark rank in a dedicated module Web Worker.
import { serveBenchRank, type BenchMessage } from '../bench-rank.ts';

const scope = self as unknown as {
  postMessage(m: unknown, t?: Transferable[]): void;
  onmessage: ((e: MessageEvent<BenchMessage>) => void) | null;
};
serveBenchRank({
  post: (m, transfer) => scope.postMessage(m, transfer ?? []),
  onMessage: (h) => {
    scope.onmessage = (e) => h(e.data);
  },
});
