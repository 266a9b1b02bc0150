#!/usr/bin/env node
// The simulation's share of each rank thread's CPU, from V8's sampling profiler: a 4-rank run of the
// chapter 4 DDP overlap playground on a simulated cluster under `node --cpu-prof` (one profile per
// thread), then, per rank, the samples whose innermost JavaScript frame is simulation code (kernel
// charging, the cluster model, the program clock) against the thread's busy samples. A share of
// samples does not depend on how many other processes share the cores, unlike wall time.
// Run on its own: `node tests/bench/sim-profile.mjs`; or import { benchSimProfile }.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PLAYGROUND = new URL('../../content/chapters/playgrounds/04-ddp-overlap.ts', import.meta.url);
const CLUSTER = { preset: 'h100-ndr', nodes: 1, gpusPerNode: 4 };
/** Where virtual time is computed: the runtime's charging and the cluster model. */
const SIMULATION_CODE = /playground\/simulation\/|playground\/rank\/kernel-charging/;

/** Busy and simulation milliseconds of one thread's profile; builtins count for the frame calling them. */
export function simulationShare(profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  let busy = 0;
  let simulation = 0;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    if (byId.get(id).callFrame.functionName === '(idle)') return;
    busy += dt;
    let frame = id;
    while (frame !== undefined && byId.get(frame).callFrame.url === '') frame = parent.get(frame);
    if (frame !== undefined && SIMULATION_CODE.test(byId.get(frame).callFrame.url))
      simulation += dt;
  });
  return { busyMs: busy / 1000, simulationMs: simulation / 1000 };
}

/** Runs the playground under the profiler in a child Node and returns each rank thread's share. */
export function benchSimProfile() {
  const dir = mkdtempSync(join(tmpdir(), 'ranks-sim-profile-'));
  try {
    const child = spawnSync(
      process.execPath,
      ['--cpu-prof', `--cpu-prof-dir=${dir}`, fileURLToPath(import.meta.url), '--child'],
      { encoding: 'utf8' },
    );
    if (child.status !== 0) throw new Error(`profiled run failed: ${child.stderr || child.stdout}`);
    // Thread 0 is the main thread (it starts the ranks and runs no kernels); the others are the ranks.
    const ranks = readdirSync(dir)
      .filter((f) => !/\.0\.\d+\.cpuprofile$/.test(f))
      .map((f) => simulationShare(JSON.parse(readFileSync(join(dir, f), 'utf8'))));
    const busyMs = ranks.reduce((a, r) => a + r.busyMs, 0);
    const simulationMs = ranks.reduce((a, r) => a + r.simulationMs, 0);
    return { ranks, busyMs, simulationMs, share: simulationMs / busyMs };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function simProfileLine(r) {
  const shares = r.ranks.map((x) => `${((x.simulationMs / x.busyMs) * 100).toFixed(2)} %`);
  return `sim-profile: simulation code is ${(r.share * 100).toFixed(2)} % of the rank threads' busy CPU samples (${r.simulationMs.toFixed(0)} of ${r.busyMs.toFixed(0)} ms; per rank ${shares.join(', ')}) in a 4-rank 04-ddp-overlap run on ${CLUSTER.preset}; target ≤ 10 %`;
}

if (process.argv[2] === '--child') {
  const { runProgram } = await import('../../playground/cluster/node.ts');
  const { result } = await runProgram({
    code: readFileSync(PLAYGROUND, 'utf8'),
    worldSize: 4,
    backend: 'cpu',
    timeoutMs: 600_000,
    cluster: CLUSTER,
  });
  if (!result.ok) throw new Error(`the playground failed: ${result.reason}`);
} else if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(simProfileLine(benchSimProfile()));
}
