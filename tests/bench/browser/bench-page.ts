// The benchmark page: the same driver as in Node, with ranks as dedicated module Web Workers.
import { runAllReduceBench, type BenchPlan } from '../bench-driver.ts';

declare global {
  interface Window {
    runBench(plan: Omit<BenchPlan, 'spawn' | 'log'>): Promise<unknown>;
    benchLog: string[];
  }
}

window.benchLog = [];
window.runBench = (plan) => {
  if (!crossOriginIsolated)
    throw new Error('the bench page is not cross-origin isolated: no SharedArrayBuffer');
  return runAllReduceBench({
    ...plan,
    log: (line) => {
      window.benchLog.push(line);
      console.log(line);
    },
    spawn: () => {
      const w = new Worker(new URL('./bench-worker.js', import.meta.url), { type: 'module' });
      return {
        post: (m, t) => w.postMessage(m, t ?? []),
        onMessage: (h) => {
          w.onmessage = (e) => h(e.data);
        },
        terminate: () => w.terminate(),
      };
    },
  });
};
