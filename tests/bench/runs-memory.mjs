#!/usr/bin/env node
// Memory across runs in the CLI's runtime (issue 34, item 9; the page's side is tests/e2e/memory.spec.ts):
// one Node process runs a playground 100 times, as a test file or a long session would, and prints the
// JavaScript heap and resident memory after run 10 and run 100 (after gc). Run on its own:
// `node --expose-gc tests/bench/runs-memory.mjs [--runs=10,100]` (≈ 15-20 min at load 20, 5 alone). Measured
// at load 8-20 on 2 cores (the same loop, run by hand):
// 04-communication-overhead on h100-ndr (4 ranks, virtual time) heap 13.32 -> 13.56 MiB (+1.8 %), resident
// 137 -> 149 MiB (+8.7 %; it moves 142-160 MiB from one measure to the next: the allocator, not the heap);
// a one-rank trivial program heap 12.79 -> 12.88 MiB (+0.7 %), resident 130 -> 134 MiB (+2.5 %).
import { readFileSync } from 'node:fs';

const CASES = [
  {
    name: '04-communication-overhead on h100-ndr, 2 x 2 GPUs',
    code: readFileSync(
      new URL('../../content/chapters/playgrounds/04-communication-overhead.ts', import.meta.url),
      'utf8',
    ),
    worldSize: 4,
    cluster: { preset: 'h100-ndr', nodes: 2, gpusPerNode: 2 },
  },
  {
    name: 'a trivial one-rank program',
    code: "import { dist } from 'ranks';\nconsole.log('trivial run on rank', dist.rank);\n",
    worldSize: 1,
  },
];

const gc = globalThis.gc;
if (!gc) throw new Error('run with node --expose-gc');
const counts = (process.argv.find((a) => a.startsWith('--runs='))?.slice(7) ?? '10,100')
  .split(',')
  .map(Number);
const { runProgram } = await import('../../playground/cluster/node.ts');
const mib = (b) => `${(b / 2 ** 20).toFixed(2)} MiB`;

async function measure() {
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((r) => setTimeout(r, 300));
  }
  const { heapUsed, rss } = process.memoryUsage();
  return { heapUsed, rss };
}

for (const { name, ...options } of CASES) {
  let done = 0;
  const seen = [];
  for (const count of counts) {
    for (; done < count; done++) {
      const { result } = await runProgram({ backend: 'cpu', ...options });
      if (!result.ok) throw new Error(`${name}: run ${done + 1} ended ${result.reason}`);
    }
    const m = await measure();
    seen.push(m);
    const first = seen[0];
    console.log(
      `${name}: after ${count} runs heap ${mib(m.heapUsed)} (${(((m.heapUsed - first.heapUsed) / first.heapUsed) * 100).toFixed(1)} %), resident ${mib(m.rss)} (${(((m.rss - first.rss) / first.rss) * 100).toFixed(1)} %)`,
    );
  }
}
process.exit(0);
