// Issue 30, point 1: logical ranks. A world larger than its workers runs several ranks on one thread
// (playground/rank/rank-host.ts); each keeps its own program instance, tfjs variables, output and failure.
import * as tf from '@tensorflow/tfjs';
import { describe, expect, it } from 'vitest';
import { runProgram, startCluster } from '../../../playground/cluster/node.ts';
import { hostOf, hostWorkers } from '../../../playground/cluster/cluster-core.ts';
import type { ClusterEvent } from '../../../playground/cluster/protocol.ts';

const WORLD = 64;
const ROWS = 2; // rows per rank; the global batch is WORLD × ROWS
const STEPS = 4;
const LR = 0.1;

/** Row k of the global batch: three features and a target, the same formula in the program and here. */
const row = (k: number) => ({
  x: [Math.sin(k), Math.cos(k), (k % 3) / 3],
  y: [0.5 * Math.sin(k) - Math.cos(k) + 0.1],
});

// Every rank names its variables 'w' and 'b' (they would collide in one tfjs engine), keeps module state,
// trains on its rows with the gradients averaged, and reports what it sees of tfjs's engine.
const program = `import * as tf from '@tensorflow/tfjs';
import { dist } from 'ranks';
const me = dist.rank; // read at the top level
let steps = 0;
const g = globalThis as { firstRank?: number };
g.firstRank ??= me; // a global the program sets is its own too
const row = ${row.toString()};
const w = tf.variable(tf.zeros([3, 1]), true, 'w');
const b = tf.variable(tf.zeros([1]), true, 'b');
const opt = tf.train.sgd(${LR});
const rows = Array.from({ length: ${ROWS} }, (_, i) => row(me * ${ROWS} + i));
const x = tf.tensor2d(rows.map((r) => r.x));
const y = tf.tensor2d(rows.map((r) => r.y));
for (let s = 0; s < ${STEPS}; s++) {
  steps++;
  const { value, grads } = tf.variableGrads(() =>
    tf.tidy(() => tf.losses.meanSquaredError(y, x.matMul(w).add(b))),
  );
  value.dispose();
  const averaged = {};
  for (const name of Object.keys(grads)) {
    averaged[name] = await dist.allReduce(grads[name], { op: 'avg' });
    grads[name].dispose();
  }
  opt.applyGradients(averaged); // looks the variables up by name in this rank's registry
  for (const t of Object.values(averaged)) t.dispose();
}
const names = Object.keys(tf.engine().state.registeredVariables).sort().join(',');
const weights = [...(await w.data()), ...(await b.data())];
const timer = await new Promise((resolve) => setTimeout(() => resolve(dist.rank), 1));
console.log(JSON.stringify({ rank: dist.rank, me, steps, names, tensors: tf.memory().numTensors, weights, first: g.firstRank, timer }));`;

/** The same model trained on the whole global batch on one device. */
function singleDevice(): number[] {
  const rows = Array.from({ length: WORLD * ROWS }, (_, k) => row(k));
  const x = tf.tensor2d(rows.map((r) => r.x));
  const y = tf.tensor2d(rows.map((r) => r.y));
  const w = tf.variable(tf.zeros([3, 1]));
  const b = tf.variable(tf.zeros([1]));
  const opt = tf.train.sgd(LR);
  for (let s = 0; s < STEPS; s++)
    opt.minimize(() => tf.losses.meanSquaredError(y, x.matMul(w).add(b)), false, [w, b]);
  const out = [...w.dataSync(), ...b.dataSync()];
  tf.dispose([x, y, w, b]);
  return out;
}

const lines = (events: ClusterEvent[]) =>
  events.filter((e): e is Extract<ClusterEvent, { type: 'log' }> => e.type === 'log');
const errorTexts = (events: ClusterEvent[]) =>
  events
    .filter((e): e is Extract<ClusterEvent, { type: 'error' }> => e.type === 'error')
    .map((e) => e.message);

describe('logical ranks: a world on fewer workers', () => {
  it('places ranks in contiguous blocks, one a worker up to the limit', () => {
    expect(hostWorkers(4, 8)).toBe(4);
    expect(hostWorkers(24, 2)).toBe(2);
    expect(hostWorkers(3, 0)).toBe(1);
    expect(Array.from({ length: 6 }, (_, r) => hostOf(r, 6, 2))).toEqual([0, 0, 0, 1, 1, 1]);
  });

  it(`${WORLD} ranks on 2 workers train to the single-device weights, each with its own variables and state`, async () => {
    tf.setBackend('cpu');
    const { result, events } = await runProgram({
      code: program,
      worldSize: WORLD,
      workers: 2,
      backend: 'cpu',
    });
    expect(errorTexts(events)).toEqual([]);
    expect(result).toMatchObject({ ok: true, reason: 'finished' });
    const reports = lines(events).map((e) => ({ tag: e.rank, ...JSON.parse(e.text) }));
    expect(reports.map((r) => r.tag).sort((a, b) => a - b)).toEqual([...Array(WORLD).keys()]);
    const expected = singleDevice();
    for (const r of reports) {
      expect(r.rank).toBe(r.tag); // its line is tagged with its own rank
      expect(r.me).toBe(r.tag); // its module read its own dist.rank at the top level
      expect(r.steps).toBe(STEPS); // module state of its own, not shared with the other ranks of its thread
      expect(r.first).toBe(r.tag); // and globals of its own
      expect(r.timer).toBe(r.tag); // a timer's callback runs as its own rank
      expect(r.names).toBe('b,w'); // only its own named variables
      expect(r.tensors).toBe(reports[0].tensors); // tensors counted per rank
      r.weights.forEach((v: number, i: number) =>
        expect(Math.abs(v - expected[i]!)).toBeLessThan(1e-4),
      );
    }
  }, 120_000);

  it('send and recv around a ring of 40 ranks, both ways: mailboxes from the pool (above 16 ranks)', async () => {
    // 32 KB through 26 KB slots streams in two chunks, so a send waits for its recv: even ranks send first.
    const code = `import * as tf from '@tensorflow/tfjs';
import { dist } from 'ranks';
const n = dist.worldSize, next = (dist.rank + 1) % n, prev = (dist.rank + n - 1) % n;
const big = () => dist.send(tf.fill([8000], dist.rank), { dst: next });
const a = dist.rank % 2 === 0 ? (await big(), await dist.recv([8000], { src: prev })) : await dist.recv([8000], { src: prev });
if (dist.rank % 2 === 1) await big();
await dist.send(tf.fill([2], 1000 + dist.rank), { dst: prev });
const b = await dist.recv([2], { src: next });
console.log(JSON.stringify([(await a.data())[7999], (await b.data())[1]]));`;
    const { result, events } = await runProgram({
      code,
      worldSize: 40,
      workers: 2,
      backend: 'cpu',
    });
    expect(errorTexts(events)).toEqual([]);
    expect(result).toMatchObject({ ok: true, reason: 'finished' });
    const got = lines(events).map((e) => [e.rank, JSON.parse(e.text)]);
    expect(got).toHaveLength(40);
    for (const [r, [fromPrev, fromNext]] of got) {
      expect(fromPrev).toBe((r + 39) % 40);
      expect(fromNext).toBe(1000 + ((r + 1) % 40));
    }
  }, 60_000);

  it('a line printed from a callback the host does not queue (a port message) still goes to its own rank', async () => {
    // The message wakes the rank outside its turn, while a thread-mate's globals are installed; the program's
    // console is its own all the same (rank-main.ts puts it in the program's scope).
    const code = `import { dist } from 'ranks';
const { port1, port2 } = new MessageChannel();
const woke = new Promise((resolve) => { port2.onmessage = () => { port2.close(); resolve(0); }; });
port1.postMessage(dist.rank);
await woke;
console.log('woke', dist.rank);`;
    const { result, events } = await runProgram({ code, worldSize: 4, workers: 1, backend: 'cpu' });
    expect(result).toMatchObject({ ok: true, reason: 'finished' });
    const woke = lines(events).filter((e) => e.text.startsWith('woke'));
    expect(woke.map((e) => e.rank).sort()).toEqual([0, 1, 2, 3]);
    for (const e of woke) expect(e.text).toBe(`woke ${e.rank}`);
  }, 60_000);

  it('code woken by a port message or a fetch runs on its own turn: its own tfjs variables, not a thread-mate’s', async () => {
    // Each rank names a variable after itself; a thread-mate's engine state is installed between its turns. The
    // port's handler and the code after fetch's answer (and its body read) must find the rank's own registry.
    const code = `import * as tf from '@tensorflow/tfjs';
import { dist } from 'ranks';
tf.variable(tf.scalar(dist.rank), true, 'mine-' + dist.rank);
const names = () => Object.keys(tf.engine().state.registeredVariables).join(',');
const { port1, port2 } = new MessageChannel();
const seen = new Promise((resolve) => { port2.onmessage = () => { port2.close(); resolve(names()); }; });
port1.postMessage(0);
const inHandler = await seen;
const text = await (await fetch('data:,hello')).text();
console.log(JSON.stringify({ inHandler, afterFetch: names(), text }));`;
    const { result, events } = await runProgram({ code, worldSize: 4, workers: 1, backend: 'cpu' });
    expect(errorTexts(events)).toEqual([]);
    expect(result).toMatchObject({ ok: true, reason: 'finished' });
    const got = lines(events).map((e) => ({ rank: e.rank, ...JSON.parse(e.text) }));
    expect(got).toHaveLength(4);
    for (const r of got)
      expect(r).toEqual({
        rank: r.rank,
        inHandler: `mine-${r.rank}`,
        afterFetch: `mine-${r.rank}`,
        text: 'hello',
      });
  }, 60_000);

  it('an endless loop in one logical rank is found and named, and the run ends', async () => {
    const code = `import * as tf from '@tensorflow/tfjs';
import { dist } from 'ranks';
await dist.barrier();
if (dist.rank === 5) { let i = 0; while (true) i++; }
await dist.allReduce(tf.ones([4]));`;
    const { result, events } = await runProgram({
      code,
      worldSize: 8,
      workers: 2,
      backend: 'cpu',
    });
    expect(result.ok).toBe(false);
    expect(errorTexts(events).join('\n')).toMatch(/Rank 5 looks stuck in an endless loop/);
  }, 60_000);

  it('Stop ends a run whose logical rank spins, at once', async () => {
    const code = `import { dist } from 'ranks';
console.log('started');
if (dist.rank === 2) while (true) {}`;
    let logged!: () => void;
    const started = new Promise<void>((resolve) => (logged = resolve));
    const running = startCluster({ code, worldSize: 6, workers: 2, backend: 'cpu' }, (e) => {
      if (e.type === 'log') logged();
    });
    await started;
    const t = performance.now();
    running.stop();
    const result = await running.done;
    expect(result.reason).toBe('stopped');
    expect(performance.now() - t).toBeLessThan(500);
  }, 60_000);
});
