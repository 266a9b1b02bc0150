#!/usr/bin/env node
// An all-reduce among logical ranks that share one thread (issue 30, point 1): W ranks, all on this thread as a
// rank worker hosts them, each all-reducing (KIND=allGather: all-gathering) a float32 array; three ways in turn:
// - engine: the shared-memory two-shot every rank ran before (copy in, two barriers, fused reduce, copy out);
// - thread: one thread by the placement, the arrays handed over by reference (thread-collectives.ts);
// - chain: two threads by the placement (both halves still on this thread), the world group as a chain.
// Per call (every rank's call settled), after a warm-up, on this machine: CPU ms (the rounds' total over their
// count: the kernel counts CPU time in ticks; what the work costs, little moved by other processes on the cores)
// and wall ms (the median round).
// 418 elements: the gradients of ddp-trainer.ts's MLP in one bucket. Past THREAD_PATH_MAX_ELEMENTS (32,768) every
// call takes the engine. Run: `npx node tests/bench/thread-all-reduce.mjs [--rounds 20]` (SIZES='[[16,418]]' for others).
import { RankCollectives } from '../../playground/collectives/rank-collectives.ts';
import { createSharedWorld } from '../../playground/collectives/shared-world.ts';

// KIND=allGather: the same for an all-gather (FSDP's), every rank gathering every rank's array.
const KIND = process.env.KIND ?? 'allReduce';
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
const cpuMs = () => {
  const u = process.threadCpuUsage?.() ?? process.cpuUsage();
  return (u.user + u.system) / 1000;
};

async function time(size, length, placement) {
  const ranks = world(size, placement);
  const inputs = ranks.map((_, r) => Float32Array.from({ length }, (_, i) => Math.sin(r + i)));
  // Output arrays kept from call to call, as dist's pool keeps them (fresh ones each call measured page faults).
  const outputs = inputs.map(() => new Float32Array(KIND === 'allGather' ? size * length : length));
  const ms = [];
  let check = 0;
  let c0 = 0;
  for (let k = 0; k <= rounds; k++) {
    if (k === 1) c0 = cpuMs();
    const t0 = performance.now();
    const out = await Promise.all(
      ranks.map((c, r) =>
        (KIND === 'allGather'
          ? c.world.allGather(inputs[r], {}, outputs[r])
          : c.world.allReduce(inputs[r], { op: 'avg' }, outputs[r])
        ).wait(),
      ),
    );
    if (k > 0) ms.push(performance.now() - t0);
    check = out[size - 1][out[size - 1].length - 1];
  }
  const cpu = (cpuMs() - c0) / rounds;
  for (const c of ranks) c.engine.stopHeartbeat();
  return { ms: median(ms), cpu, check };
}

const block = (from, to) => Array.from({ length: to - from }, (_, i) => from + i);
console.log(
  '| ranks on the thread | elements | engine: CPU (wall) ms | thread: CPU (wall) ms | chain, 2 threads: CPU (wall) ms |',
);
console.log('| ---: | ---: | ---: | ---: | ---: |');
const SIZES = process.env.SIZES ? JSON.parse(process.env.SIZES) : null;
for (const [size, length] of SIZES ?? [
  [16, 418],
  [64, 418],
  [256, 418],
  [512, 418],
  [16, 16384],
  [128, 16384],
]) {
  const engine = await time(size, length);
  const thread = await time(size, length, [block(0, size)]);
  const chain = await time(size, length, [block(0, size / 2), block(size / 2, size)]);
  if (engine.check !== thread.check || engine.check !== chain.check)
    throw new Error(`results differ: ${engine.check} ${thread.check} ${chain.check}`);
  const f = (x) => `${x.cpu.toFixed(2)} (${x.ms.toFixed(2)})`;
  console.log(`| ${size} | ${length} | ${f(engine)} | ${f(thread)} | ${f(chain)} |`);
}
