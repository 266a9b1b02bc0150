import {
  GOYAL_2017,
  linearScaledLr,
  sqrtScaledLr,
  stepSpeedup,
  stepsToTarget,
  warmupLr,
} from '../../figures/batch-scaling';
import { sig, type ProblemSet } from './types';

const goyalBatch = GOYAL_2017.gpus * GOYAL_2017.perGpu;
const noise = 1000;
const minSteps = 10_000;
const peak = linearScaledLr(GOYAL_2017.refLr, GOYAL_2017.refBatch, goyalBatch);

export const problemSet: ProblemSet = {
  chapter: '08-batch-size-and-learning-rate',
  problems: [
    {
      title: 'Scaling the learning rate with the ranks',
      setup: `Goyal et al. train ResNet-50 with η = ${GOYAL_2017.refLr} · B/${GOYAL_2017.refBatch} on ${GOYAL_2017.gpus} GPUs of ${GOYAL_2017.perGpu} images each.`,
      steps: [
        {
          prompt: 'What is the global batch?',
          value: goyalBatch,
          unit: '',
          tolerance: 0.001,
          solution: `${GOYAL_2017.gpus} × ${GOYAL_2017.perGpu} = ${goyalBatch}.`,
        },
        {
          prompt: 'What peak learning rate does the linear rule give?',
          value: linearScaledLr(GOYAL_2017.refLr, GOYAL_2017.refBatch, goyalBatch),
          unit: '',
          tolerance: 0.01,
          solution: `${GOYAL_2017.refLr} × ${goyalBatch}/${GOYAL_2017.refBatch} = ${sig(linearScaledLr(GOYAL_2017.refLr, GOYAL_2017.refBatch, goyalBatch))}, reached after a 5-epoch warm-up.`,
          mistakes: [
            {
              value: linearScaledLr(GOYAL_2017.refLr, GOYAL_2017.refBatch, GOYAL_2017.perGpu),
              why: 'That uses the per-GPU batch; the rule scales with the global batch.',
            },
          ],
        },
        {
          prompt:
            'An Adam run tuned at batch 256 with rate 3e-4 moves to batch 4096. What rate does square-root scaling suggest?',
          value: sqrtScaledLr(3e-4, 256, 4096),
          unit: '',
          tolerance: 0.01,
          solution: `√(4096/256) = 4, so ${sig(sqrtScaledLr(3e-4, 256, 4096))}.`,
          mistakes: [
            {
              value: linearScaledLr(3e-4, 256, 4096),
              why: 'That is linear scaling (× 16); square-root scaling multiplies by √16 = 4.',
            },
          ],
        },
      ],
    },
    {
      title: 'Where more ranks stop helping',
      setup: `A job's gradient noise scale is B_noise = ${noise} and it needs S_min = ${minSteps} steps at an infinite batch; S = S_min (1 + B_noise/B).`,
      steps: [
        {
          prompt: `How many steps does it need at B = ${noise}?`,
          value: stepsToTarget(noise, noise, minSteps),
          unit: '',
          tolerance: 0.01,
          solution: `${minSteps} × (1 + 1) = ${stepsToTarget(noise, noise, minSteps)}.`,
        },
        {
          prompt: `Doubling the ranks doubles B to ${2 * noise}. By what factor do the steps fall?`,
          value: stepSpeedup(noise, 2 * noise, noise).actual,
          unit: 'x',
          tolerance: 0.01,
          solution: `${stepsToTarget(noise, noise, minSteps)} / ${stepsToTarget(2 * noise, noise, minSteps)} = ${sig(stepSpeedup(noise, 2 * noise, noise).actual)}× for 2× the compute.`,
          mistakes: [{ value: 2, why: '2× holds only far below the noise scale.' }],
        },
        {
          prompt: `And doubling again from B = ${8 * noise} to ${16 * noise}?`,
          value: stepSpeedup(8 * noise, 16 * noise, noise).actual,
          unit: 'x',
          tolerance: 0.01,
          solution: `${sig(stepsToTarget(8 * noise, noise, minSteps))} / ${sig(stepsToTarget(16 * noise, noise, minSteps))} = ${sig(stepSpeedup(8 * noise, 16 * noise, noise).actual)}×: far above the noise scale, more ranks mostly burn compute.`,
        },
      ],
    },
    {
      title: 'Warm-up length',
      setup: 'A warm-up climbs linearly from peak/W to the peak rate over W steps.',
      steps: [
        {
          prompt: `With W = 500 and the peak of ${sig(linearScaledLr(GOYAL_2017.refLr, GOYAL_2017.refBatch, goyalBatch))}, what is the rate at step 0?`,
          value: warmupLr(0, peak, 500),
          unit: '',
          tolerance: 0.01,
          solution: `${sig(linearScaledLr(GOYAL_2017.refLr, GOYAL_2017.refBatch, goyalBatch))} / 500 = ${sig(linearScaledLr(GOYAL_2017.refLr, GOYAL_2017.refBatch, goyalBatch) / 500)}.`,
        },
        {
          prompt: 'And at step 249 (0-based)?',
          value: warmupLr(249, peak, 500),
          unit: '',
          tolerance: 0.01,
          solution: `peak × (249 + 1)/500 = half the peak, ${sig((linearScaledLr(GOYAL_2017.refLr, GOYAL_2017.refBatch, goyalBatch) * 250) / 500)}.`,
        },
      ],
    },
  ],
};
