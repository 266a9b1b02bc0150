#!/usr/bin/env node
// An all-reduce among logical ranks that share one thread (issue 30, point 1): W ranks, all on this thread as a
// rank worker hosts them, each all-reducing a float32 array; three ways, alternated:
// - engine: the shared-memory two-shot every rank ran before (copy in, two barriers, fused reduce, copy out);
// - thread: one thread by the placement, the arrays handed over by reference (thread-collectives.ts);
// - chain: two threads by the placement (both halves still on this thread), the world group as a chain.
// Wall ms per call (every rank's call settled), median of the rounds after a warm-up, on this machine.
// Run: `npx node tests/bench/thread-all-reduce.mjs [--rounds 20]`.
import { RankCollectives } from '../../playground/collectives/rank-collectives.ts';
import { createSharedWorld } from '../../playground/collectives/shared-world.ts';

const rounds = Number(process.argv[process.argv.indexOf('--rounds') + 1]) || 20;

function world(size, placement) {
  const shared = createSharedWorld(size, { arenaBytes: Math.min(64 << 20, size * (1 << 20)) });
  return Array.from({ length: size }, (_, rank) => {
    const threadRanks = placement?.find((t) => t.includes(rank));
    return new RankCollectives(shared, rank, {
      now: () => performance.now(),
      hosted: true,
      ...(threadRanks ? { threadRanks } : {}),
    });
  });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function time(size, length, placement) {
  const ranks = world(size, placement);
  const inputs = ranks.map((_, r) => Float32Array.from({ length }, (_, i) => Math.sin(r + i)));
  const ms = [];
  let check = 0;
  for (let k = 0; k <= rounds; k++) {
    const t0 = performance.now();
    const out = await Promise.all(ranks.map((c, r) => c.allReduce(inputs[r], { op: 'avg' })));
    if (k > 0) ms.push(performance.now() - t0);
    check = out[size - 1][length - 1];
  }
  for (const c of ranks) c.engine.stopHeartbeat();
  return { ms: median(ms), check };
}

const block = (from, to) => Array.from({ length: to - from }, (_, i) => from + i);
console.log(
  '| ranks on the thread | elements | engine (ms) | thread (ms) | chain, 2 threads (ms) |',
);
console.log('| ---: | ---: | ---: | ---: | ---: |');
for (const [size, length] of [
  [16, 418],
  [64, 418],
  [256, 418],
  [512, 418],
  [16, 1 << 16],
]) {
  const engine = await time(size, length);
  const thread = await time(size, length, [block(0, size)]);
  const chain = await time(size, length, [block(0, size / 2), block(size / 2, size)]);
  if (engine.check !== thread.check || engine.check !== chain.check)
    throw new Error(`results differ: ${engine.check} ${thread.check} ${chain.check}`);
  const f = (x) => x.toFixed(2);
  console.log(`| ${size} | ${length} | ${f(engine.ms)} | ${f(thread.ms)} | ${f(chain.ms)} |`);
}
