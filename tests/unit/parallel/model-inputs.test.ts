import { beforeAll, describe, expect, it } from 'vitest';
import { maxParamDiff } from './reference-json.ts';
import { PRELUDE, runRanks } from './run-ranks.ts';
import { singleDeviceHistory } from './single-device-runs.ts';

interface Rec {
  input: string;
  params: Record<string, number[]>;
}

const NAMES = ['0.weight', '0.bias', '2.weight', '2.bias'];

// The reference MLP given to DDP as a tfjs LayersModel and as plain variables + a forward function.
// Ranks other than 0 start from perturbed weights: DDP's broadcast at wrap time must undo that.
const program = `${PRELUDE}
const { x, y } = ranks.referenceData();
const rows = new ranks.DistributedSampler(16, { numReplicas: dist.worldSize, rank: dist.rank, shuffle: false }).indices();
const xs = tf.gather(x, rows);
const ys = tf.gather(y, rows);
const names = ${JSON.stringify(NAMES)};
const start = await ranks.referenceModel().snapshot();
const initial = (name, shape) => tf.tensor(start[name], shape).add(dist.rank * 0.1);
const lr = ranks.REFERENCE_MLP.lr.sgd;

const layers = tf.sequential({ layers: [tf.layers.dense({ inputShape: [4], units: 8, activation: 'tanh' }), tf.layers.dense({ units: 3 })] });
layers.layers[0].setWeights([initial('0.weight', [8, 4]).transpose(), initial('0.bias', [8])]);
layers.layers[1].setWeights([initial('2.weight', [3, 8]).transpose(), initial('2.bias', [3])]);
const ddpLayers = await ranks.DDP(layers, { optimizer: new ranks.SGD({ lr }) });
for (let s = 0; s < ranks.REFERENCE_MLP.steps; s++) await ddpLayers.trainStep(xs, ys);
ranks.copyToLayersModel(ddpLayers.model, layers);
const fromLayers = {};
const [k0, b0] = layers.layers[0].getWeights();
const [k1, b1] = layers.layers[1].getWeights();
[k0.transpose(), b0, k1.transpose(), b1].forEach((t, i) => { fromLayers[names[i]] = Array.from(t.dataSync()); });
report({ input: 'LayersModel', params: fromLayers });

const vars = [initial('0.weight', [8, 4]), initial('0.bias', [8]), initial('2.weight', [3, 8]), initial('2.bias', [3])].map((t) => tf.variable(t));
const forward = (h, [w1, c1, w2, c2]) => tf.tanh(h.matMul(w1, false, true).add(c1)).matMul(w2, false, true).add(c2);
const ddpVars = await ranks.DDP({ params: vars, forward }, { optimizer: new ranks.SGD({ lr }) });
for (let s = 0; s < ranks.REFERENCE_MLP.steps; s++) await ddpVars.trainStep(xs, ys);
const fromVars = {};
for (let i = 0; i < vars.length; i++) fromVars[names[i]] = Array.from(await vars[i].data());
report({ input: 'variables', params: fromVars });
`;

describe('DDP accepts a tfjs LayersModel and a plain variable list (2 ranks, different starting weights)', () => {
  let records: Rec[][] = [];
  let single: Record<string, number[]> = {};
  beforeAll(async () => {
    single = (await singleDeviceHistory('sgd')).params.at(-1)!;
    records = await runRanks<Rec>(program, 2);
  }, 240_000);

  for (const input of ['LayersModel', 'variables']) {
    it(`${input}: trained in place to the single-device weights (1e-5) on every rank`, () => {
      for (const rank of records) {
        const run = rank.find((r) => r.input === input)!;
        expect(Object.keys(run.params)).toEqual(NAMES);
        expect(maxParamDiff(run.params, single)).toBeLessThan(1e-5);
      }
    });
  }
});
