// Failures at scale: when does a job of this size lose a rank, and what does the restart cost?
// The job trains two steps on the cluster (charged as Llama 2 7B under DDP, 8,192 tokens per GPU) to
// learn its step time. The first interruption is then drawn from the rate Llama 3's pre-training saw
// (419 unexpected interruptions in 54 days on 16,384 H100s, Dubey et al. 2024, §3.3.4), spread over
// the GPUs: the more GPUs, the sooner. A rank dies at that step; its peers' next all-reduce waits out
// the collective timeout, and the job restarts from its last checkpoint, redoing the work since.
import * as tf from '@tensorflow/tfjs';
import { dist, plot } from 'ranks';

const LLAMA3 = { gpus: 16_384, days: 54, unexpected: 419 },
  LLAMA2_7B = 6_738_415_616, // parameters
  tokensPerGpu = 8192,
  restartMinutes = 10, // relaunch, rendezvous, load the checkpoint
  checkpointMinutes = 2, // training stops this long for each checkpoint
  intervalsMinutes = [10, 30, 60, 120, 240],
  seed = 3;
const world = dist.worldSize;
const d = 64,
  rows = 8;
const X = tf.randomNormal([rows, d], 0, 1, 'float32', 1 + dist.rank);
const Y = tf.randomNormal([rows, 1], 0, 1, 'float32', 100 + dist.rank);
const W1 = tf.variable(tf.randomNormal([d, d], 0, 0.1, 'float32', 5));
const W2 = tf.variable(tf.randomNormal([d, 1], 0, 0.1, 'float32', 6));
dist.simulation?.chargeAs(
  { params: LLAMA2_7B, tokensPerStep: tokensPerGpu * world },
  { params: W1.size + W2.size, tokensPerStep: rows * world },
);

// Two steps of synchronous DDP: forward, backward, all-reduce of the gradients, SGD.
let stepSeconds = 0;
for (let s = 0; s < 2; s++) {
  const t0 = dist.simulation ? await dist.simulation.now() : performance.now() / 1000;
  const { grads } = tf.variableGrads(
    () => tf.losses.meanSquaredError(Y, tf.relu(X.matMul(W1)).matMul(W2)) as tf.Scalar,
    [W1, W2],
  );
  const avg = await Promise.all([W1, W2].map((w) => dist.allReduce(grads[w.name]!, { op: 'avg' })));
  W1.assign(W1.sub(avg[0]!.mul(0.01)));
  W2.assign(W2.sub(avg[1]!.mul(0.01)));
  tf.dispose([...avg, ...Object.values(grads)]);
  await dist.simulation?.endStep();
  const r = dist.simulation?.lastStep();
  stepSeconds = r ? r.end - r.start : performance.now() / 1000 - t0;
}
// Every rank uses rank 0's step time and the same draw (one seed), so every rank prints the same story.
const shared = await dist.broadcast(tf.tensor1d([stepSeconds]), { src: 0 });
const step = (await shared.data())[0]!;
shared.dispose();

// Interruptions per GPU-hour in the Llama 3 snapshot; a job of `world` GPUs sees world times as many.
const gpuHoursPerInterruption = (LLAMA3.days * 24 * LLAMA3.gpus) / LLAMA3.unexpected;
const mtbfHours = gpuHoursPerInterruption / world;
const [u1, u2] = await tf.randomUniform([2], 0, 1, 'float32', seed).data();
const failHours = -mtbfHours * Math.log(1 - u1!); // exponential: memoryless arrivals at that rate
const deadRank = Math.floor(u2! * world);
const failStep = Math.floor((failHours * 3600) / step);
const timeoutMinutes = (dist.simulation?.cluster.collectiveTimeoutSeconds ?? 600) / 60;

const fmt = (h: number) => (h >= 48 ? `${(h / 24).toFixed(1)} days` : `${h.toFixed(2)} h`);
console.log(
  `${dist.simulation ? 'virtual step on the simulated cluster' : 'step measured on this machine'}: ${(step * 1000).toFixed(1)} ms; ${world} GPUs lose one about every ${fmt(mtbfHours)} at Llama 3's rate`,
);
console.log(
  `drawn: rank ${deadRank} dies at step ${failStep.toLocaleString('en')}, after ${fmt(failHours)} of training; its peers wait ${timeoutMinutes} min for the collective timeout`,
);
// Checkpoint every τ minutes of training (each stops training for C): a restart redoes the work since the last one.
const youngMinutes = Math.sqrt(2 * checkpointMinutes * mtbfHours * 60);
for (const tau of [...intervalsMinutes, youngMinutes]) {
  const lost = (failHours * 60) % tau; // training since the last checkpoint, redone after the restart
  const cost = lost + timeoutMinutes + restartMinutes;
  // First order (the goodput formula above, with detection added): C/τ for checkpoints, and per failure
  // half an interval redone plus detection and restart.
  const goodput =
    1 - checkpointMinutes / tau - (tau / 2 + timeoutMinutes + restartMinutes) / (mtbfHours * 60);
  const label =
    tau === youngMinutes ? `τ = ${tau.toFixed(0)} min (Young's √(2CM))` : `τ = ${tau} min`;
  console.log(
    `checkpoint every ${label}: this failure costs ${cost.toFixed(1)} min (${lost.toFixed(1)} redone, ${timeoutMinutes} detecting, ${restartMinutes} restarting); expected goodput ${(goodput * 100).toFixed(1)} %`,
  );
  if (dist.rank === 0 && tau !== youngMinutes)
    plot.line('expected goodput (%) against the checkpoint interval (min)', tau, goodput * 100, {
      series: `${world} GPUs`,
    });
}
