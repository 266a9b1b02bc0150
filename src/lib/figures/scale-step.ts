/**
 * Chapter 9's scale playground (content/chapters/playgrounds/09-scale-ddp-fsdp.ts): what its toy model
 * is charged as (GPT-2 small), how many bytes each of its collectives stands for, and which algorithm the
 * cluster model (playground/simulation/collective-model.ts) times each one with at every group size.
 * The program defines the same constants; tests/unit/figures/scale-step.test.ts checks they agree.
 */
import {
  clusterShape,
  predictCollective,
  type Collective,
  type CollectivePrediction,
} from '../../../playground/simulation/index.ts';

/**
 * GPT-2 small as karpathy/nanoGPT's `GPT.from_pretrained('gpt2')` builds it (model.py: n_layer 12,
 * n_head 12, n_embd 768, vocab_size 50257, block_size 1024, bias True), the output layer tied to the
 * token embedding.
 */
export const GPT2_SMALL = { layers: 12, dim: 768, vocab: 50_257, context: 1024 } as const;

/** Parameters of one GPT-2 block: attention (qkv and projection) 4d² + 4d, MLP 8d² + 5d, two LayerNorms 4d. */
export function gpt2BlockParams(dim: number = GPT2_SMALL.dim): number {
  return 12 * dim * dim + 13 * dim;
}

/** GPT-2 small's parameters: the blocks, the token and position embeddings, and the final LayerNorm. */
export function gpt2Params(m: typeof GPT2_SMALL = GPT2_SMALL): {
  total: number;
  block: number;
  root: number;
} {
  const block = gpt2BlockParams(m.dim);
  const root = m.vocab * m.dim + m.context * m.dim + 2 * m.dim;
  return { total: m.layers * block + root, block, root };
}

/**
 * FSDP's bytes per rank over DDP's, ring for ring: an all-gather of every unit in forward, another in
 * backward of every unit but the root (FSDP2 keeps the root unsharded from forward into backward:
 * fully_shard's reshard_after_forward=None means False for the root, _fully_shard.py docstring), and a
 * reduce-scatter, each moving (k − 1)/k of what it covers, against DDP's all-reduce moving 2(k − 1)/k
 * of the whole model.
 */
export function fsdpBytesOverDdp(m: { total: number; root: number } = gpt2Params()): number {
  const rootShare = m.root / m.total;
  return (1 + (1 - rootShare) + 1) / 2;
}

/** The playground's constants: the preset it is embedded on, the charge, and the toy that stands for it. */
export const SCALE_STEP = {
  preset: 'h100-ndr',
  gpusPerNode: 8,
  /** The page's default: four nodes, so the default run shows three sizes (8, 16, 32). */
  defaultNodes: 4,
  tokensPerGpu: 8 * 1024,
  /** fully_shard on every 3 blocks: 4 units, then the root (embeddings and final norm). */
  units: 4,
  blocksPerUnit: 3,
  /** Toy width: a unit is d × d, the root vocab × d. */
  d: 32,
  vocab: 60,
  /** Group sizes the program runs, up to the world. */
  sizes: [8, 16, 32, 64, 128, 256, 512, 1024],
} as const;

export const toyUnitElements = SCALE_STEP.d * SCALE_STEP.d;
export const toyRootElements = SCALE_STEP.vocab * SCALE_STEP.d;
export const toyParams = SCALE_STEP.units * toyUnitElements + toyRootElements;

/**
 * Bytes a collective over `elements` toy elements stands for: the charge scales every collective by
 * charged / toy parameters and sends bf16 (2 bytes; playground/collectives/rank-simulation.ts chargeAs).
 */
export function chargedBytes(elements: number): number {
  return elements * (gpt2Params().total / toyParams) * 2;
}

/** The toy root padded to a multiple of the group size, as the program pads it to shard it evenly. */
export function paddedRootElements(gpus: number): number {
  return Math.ceil(toyRootElements / gpus) * gpus;
}

export interface ScaleStepRow {
  gpus: number;
  nodes: number;
  /** DDP's all-reduce of one unit's gradients (one bucket a unit). */
  ddpUnit: CollectivePrediction;
  /** DDP's all-reduce of the root's gradients. */
  ddpRoot: CollectivePrediction;
  /** FSDP's all-gather of one unit's parameters (forward, and again in backward). */
  allGather: CollectivePrediction;
  /** FSDP's reduce-scatter of one unit's gradients. */
  reduceScatter: CollectivePrediction;
}

/** The cluster model's prediction for each of the step's collectives on `gpus` GPUs (whole nodes of the preset). */
export function scaleStepRow(gpus: number): ScaleStepRow {
  const per = SCALE_STEP.gpusPerNode;
  const nodes = Math.ceil(gpus / per);
  const shape = clusterShape(SCALE_STEP.preset, nodes, Math.min(per, gpus));
  const at = (c: Collective, elements: number) =>
    predictCollective(shape, c, chargedBytes(elements));
  return {
    gpus,
    nodes,
    ddpUnit: at('all-reduce', toyUnitElements),
    ddpRoot: at('all-reduce', toyRootElements),
    allGather: at('all-gather', toyUnitElements),
    reduceScatter: at('reduce-scatter', toyUnitElements),
  };
}

/** Every size the program runs at the largest world (1,024 GPUs). */
export function scaleStepRows(): ScaleStepRow[] {
  return SCALE_STEP.sizes.map(scaleStepRow);
}

/** A stretch of consecutive node counts on which DDP's unit all-reduce runs the same algorithm and protocol. */
export interface AlgorithmRun {
  algorithm: CollectivePrediction['algorithm'];
  protocol: CollectivePrediction['protocol'];
  fromNodes: number;
  toNodes: number;
}

/** DDP's bucket algorithm by node count, as the chapter's prose states it (computed, so it follows the model). */
export function ddpAlgorithmRuns(rows: readonly ScaleStepRow[] = scaleStepRows()): AlgorithmRun[] {
  const runs: AlgorithmRun[] = [];
  for (const r of rows) {
    const last = runs.at(-1);
    const { algorithm, protocol } = r.ddpUnit;
    if (last && last.algorithm === algorithm && last.protocol === protocol) last.toNodes = r.nodes;
    else runs.push({ algorithm, protocol, fromNodes: r.nodes, toNodes: r.nodes });
  }
  return runs;
}
