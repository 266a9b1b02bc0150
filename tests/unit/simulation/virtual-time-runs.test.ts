import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { runProgram } from '../../../playground/cluster/node.ts';
import type { SimulatedClusterOptions } from '../../../playground/contract/protocol.ts';
import { clusterShape, predictCollective } from '../../../playground/simulation/index.ts';

/**
 * Real rank workers on a simulated cluster: the virtual times come from the model only. Cost: seven
 * 4-rank runs of a 7-layer MLP for 3 steps (about 3 s each on an idle 2-core machine), two runs of it
 * for 6 steps (ZeRO-3 then FSDP) and a 2-step send/recv run (chapter 6's prefetch playground is in
 * charged-job-runs.test.ts): under
 * the same load these took about 2×, 1× and 0.3× the DDP determinism test's two runs.
 */
const program = (trainer: string) => `import * as tf from '@tensorflow/tfjs';
import { dist, DDP, ZeRO, fullyShard, mlp, SGD } from 'ranks';
const model = mlp([64, 128, 128, 128, 128, 128, 64], { seed: 1 });
const opts = { optimizer: new SGD({ lr: 0.01 }), chargeAs: { params: 1e9, tokensPerStep: 32768 } };
const trainer = ${trainer};
const x = tf.randomNormal([16, 64], 0, 1, 'float32', dist.rank + 1);
const y = tf.randomNormal([16, 64], 0, 1, 'float32', dist.rank + 11);
for (let s = 0; s < 3; s++) await trainer.trainStep(x, y);`;

// One bucket per layer (each 128×128 layer is 64 KiB), so buckets launch through the backward.
const ddp = (overlap: boolean) =>
  program(
    `await DDP(model, { ...opts, bucketCapMB: 0.05, firstBucketCapMB: 0.05, overlap: ${overlap} })`,
  );
const zero3 = program(`await ZeRO(model, { ...opts, stage: 3 })`);
// ZeRO-3 then FSDP2 in one run (steps 0–2, then 3–5), so determinism for both costs two runs, not four.
const zero3ThenFsdp = `${program(`await ZeRO(model, { ...opts, stage: 3 })`)}
const fsdp = await fullyShard(mlp([64, 128, 128, 128, 128, 128, 64], { seed: 1 }), opts);
for (let s = 0; s < 3; s++) await fsdp.trainStep(x, y);`;

async function simulate(code: string, cluster: SimulatedClusterOptions) {
  const { result, record } = await runProgram({
    code,
    worldSize: cluster.nodes * cluster.gpusPerNode,
    backend: 'cpu',
    timeoutMs: 170_000,
    cluster,
  });
  const failures = record.ranks.flatMap((r) => record.errors(r.rank).map((l) => l.text));
  return { result, record, failures, steps: record.virtualSteps };
}

/** A second thread spinning for the length of `fn`: the machine is busy, the virtual times must not care. */
async function whileBusy<T>(fn: () => Promise<T>): Promise<T> {
  const spinner = new Worker('for (;;) {}', { eval: true });
  try {
    return await fn();
  } finally {
    await spinner.terminate();
  }
}

// NVLink ring inside one node, no NVLS: all-reduce, all-gather and reduce-scatter all run as rings.
const oneA100Node = { preset: 'a100-hdr', nodes: 1, gpusPerNode: 4 } as const;

describe('virtual time in real rank workers', { timeout: 400_000 }, () => {
  it('the same 4-rank DDP program gives identical virtual step times twice, once with the machine busy', async () => {
    const quiet = await simulate(ddp(true), oneA100Node);
    const busy = await whileBusy(() => simulate(ddp(true), oneA100Node));
    expect(quiet.failures).toEqual([]);
    expect(quiet.steps).toHaveLength(3);
    expect(busy.steps.map((s) => s.seconds)).toEqual(quiet.steps.map((s) => s.seconds));
    expect(busy.steps.map((s) => s.exposedCommSeconds)).toEqual(
      quiet.steps.map((s) => s.exposedCommSeconds),
    );
    // Charged as 1e9 parameters: 6 × 1e9 × 32768 / 4 FLOPs per rank at 50 % of 312 TFLOP/s ≈ 0.315 s.
    expect(quiet.steps[2]!.computeSeconds).toBeGreaterThan(0.3);
    expect(quiet.steps[2]!.mfu).toBeGreaterThan(0.4);
    expect(quiet.record.virtualTrace.some((e) => e.lane === 'comm' && e.rank === 3)).toBe(true);
  });

  it('the same 4-rank ZeRO-3 and FSDP program gives identical virtual step times twice, once with the machine busy', async () => {
    const quiet = await simulate(zero3ThenFsdp, oneA100Node);
    const busy = await whileBusy(() => simulate(zero3ThenFsdp, oneA100Node));
    expect(quiet.failures).toEqual([]);
    expect(quiet.steps).toHaveLength(6);
    for (const key of ['seconds', 'computeSeconds', 'commSeconds', 'exposedCommSeconds'] as const)
      expect(
        busy.steps.map((s) => s[key]),
        key,
      ).toEqual(quiet.steps.map((s) => s[key]));
    // Spans arrive in machine-dependent order across ranks and lanes; their times must not differ.
    const spans = (r: typeof quiet) =>
      r.record.virtualTrace
        .map((e) => `${e.rank} ${e.lane} ${e.start} ${e.end} ${e.name} ${e.bytes ?? ''}`)
        .sort();
    expect(spans(busy)).toEqual(spans(quiet));
    // FSDP's SGD step on rank 0's quarter of a model charged as 1e9 parameters: one fused fp32 pass,
    // 12 bytes per parameter (read parameter and gradient, write parameter) over the A100's HBM.
    const optimizer = quiet.record.virtualTrace
      .filter((e) => e.rank === 0 && e.step === 4 && e.name === 'optimizer')
      .reduce((a, e) => a + e.end - e.start, 0);
    const hbm = clusterShape('a100-hdr', 1, 4).preset.gpu.hbmBandwidth.value;
    expect(optimizer).toBeCloseTo(((1e9 / 4) * 12) / hbm, 9);
  });

  it('on two 100 GbE nodes, where communication is about as long as the backward, overlap cuts exposed communication ≥ 40 %', async () => {
    const cluster = { preset: 'a100-100gbe', nodes: 2, gpusPerNode: 2 } as const;
    const on = await simulate(ddp(true), cluster);
    const off = await simulate(ddp(false), cluster);
    expect([...on.failures, ...off.failures]).toEqual([]);
    // Step 0 runs with one construction-time bucket; buckets are rebuilt per layer from step 1.
    const [a, b] = [on.steps[2]!, off.steps[2]!];
    const backward = (b.computeSeconds * 2) / 3; // backward is 4 of the 6 FLOPs per parameter and token
    expect(b.commSeconds / backward).toBeGreaterThan(0.7);
    expect(b.commSeconds / backward).toBeLessThan(1.4);
    expect(a.exposedCommSeconds).toBeLessThanOrEqual(0.6 * b.exposedCommSeconds);
    expect(a.seconds).toBeLessThan(b.seconds);
  });

  it('ZeRO-3 spends 1.5× DDP’s communication time per step (± 5 %) with ring collectives', async () => {
    // Bandwidth-bound rings: all-reduce moves 2(n−1)/n of the gradients, ZeRO-3 moves (n−1)/n three
    // times (forward all-gather, backward all-gather, reduce-scatter), hence 1.5×. On H100 with NVLS the
    // all-reduce runs as NVLS (each link carries the buffer about once each way) while the all-gather and
    // reduce-scatter stay rings, so the ratio is about 1.9× there instead.
    const shape = clusterShape(oneA100Node.preset, 1, 4);
    expect(predictCollective(shape, 'all-reduce', 2e9).algorithm).toBe('ring');
    const d = await simulate(ddp(true), oneA100Node);
    const z = await simulate(zero3, oneA100Node);
    expect([...d.failures, ...z.failures]).toEqual([]);
    const ratio = z.steps[2]!.commSeconds / d.steps[2]!.commSeconds;
    expect(ratio).toBeGreaterThan(1.5 * 0.95);
    expect(ratio).toBeLessThan(1.5 * 1.05);
  });

  it('a 2× slower rank makes a synchronous step about 2× slower', async () => {
    const base = await simulate(ddp(true), oneA100Node);
    const slow = await simulate(ddp(true), { ...oneA100Node, slowdown: { 1: 2 } });
    expect(slow.failures).toEqual([]);
    const ratio = slow.steps[2]!.seconds / base.steps[2]!.seconds;
    expect(ratio).toBeGreaterThan(1.85);
    expect(ratio).toBeLessThan(2.05);
    // The fast ranks spend the difference waiting for rank 1: idle, not communication.
    const fast = slow.steps[2]!.ranks[0]!;
    expect(fast.peerWaitSeconds).toBeGreaterThan(0.8 * base.steps[2]!.computeSeconds);
    for (const r of slow.steps[2]!.ranks) {
      expect(r.exposedCommSeconds).toBeLessThanOrEqual(r.commSeconds);
      expect(r.computeSeconds + r.exposedCommSeconds + r.peerWaitSeconds!).toBeCloseTo(
        r.end - r.start,
        12,
      );
    }
  });

  it('a rank that dies at step 1 ends the run with an NCCL-like timeout naming it', async () => {
    const run = await simulate(ddp(true), { ...oneA100Node, deadRank: { rank: 2, atStep: 1 } });
    expect(run.result.ok).toBe(false);
    expect(run.steps).toHaveLength(1);
    const text = run.failures.join('\n');
    expect(text).toMatch(
      /timed out after 600 s of virtual time \(at [\d.]+ s\): rank 2 never arrived/,
    );
    expect(run.failures.length).toBeGreaterThan(0);
  });
  it('a rank that dies before a send makes its receiver time out naming it, in virtual time', async () => {
    // Rank 2 sends to rank 3 every step and dies at the start of step 1: rank 3's second recv never completes.
    const code = `import * as tf from '@tensorflow/tfjs';
import { dist } from 'ranks';
for (let step = 0; step < 2; step++) {
  dist.simulation?.compute(0.01, 'forward');
  if (dist.rank === 2) await dist.send(tf.ones([16]), { dst: 3 });
  if (dist.rank === 3) await dist.recv([16], { src: 2 });
  await dist.simulation?.endStep();
}`;
    const run = await simulate(code, { ...oneA100Node, deadRank: { rank: 2, atStep: 1 } });
    expect(run.result.ok).toBe(false);
    const failures = run.record.errors(3).map((l) => l.text);
    expect(failures.join('\n')).toMatch(
      /rank 3: recv\(16 float32\) from rank 2 timed out after 600 s of virtual time \(at 600\.020 s\): rank 2 never arrived/,
    );
    // The ranks that do not talk to rank 2 finish their steps.
    expect(run.record.errors(0)).toEqual([]);
  });
});
