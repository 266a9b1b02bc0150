/**
 * Named architectures a run can be charged as (`chargeAs: { model: 'llama-2-7b', … }`): their parameter
 * list in registration order, grouped into the layers backward walks through. The toy model does the
 * arithmetic; this list decides what PyTorch would cut (DDP buckets, FSDP units) and what each costs.
 */

/** A decoder-only transformer as torchtitan's Llama `ModelArgs` describes it. */
export interface TransformerShape {
  dim: number;
  layers: number;
  heads: number;
  /** Key/value heads (grouped-query attention); `heads` when absent. */
  kvHeads?: number;
  vocab: number;
  /** SwiGLU hidden size, after torchtitan's FeedForward rounding. */
  ffnHidden: number;
  source: string;
}

/**
 * torchtitan `torchtitan/models/llama/__init__.py` (llama2 configs "7B": dim 4096, 32 layers, 32 heads;
 * "13B": 5120, 40, 40) with `FeedForward` in `model.py`: hidden = 256 × ⌈(2/3 × 4 × dim) / 256⌉
 * (11008 and 13824); vocabulary 32,000 (Touvron et al. 2023, Llama 2, §2.1: the Llama 1 tokenizer, 32k tokens).
 */
export const CHARGED_MODELS = {
  'llama-2-7b': {
    dim: 4096,
    layers: 32,
    heads: 32,
    vocab: 32_000,
    ffnHidden: swigluHidden(4096),
    source:
      'pytorch/torchtitan torchtitan/models/llama/__init__.py llama2 "7B"; model.py FeedForward',
  },
  'llama-2-13b': {
    dim: 5120,
    layers: 40,
    heads: 40,
    vocab: 32_000,
    ffnHidden: swigluHidden(5120),
    source:
      'pytorch/torchtitan torchtitan/models/llama/__init__.py llama2 "13B"; model.py FeedForward',
  },
} as const satisfies Record<string, TransformerShape>;
export type ChargedModelId = keyof typeof CHARGED_MODELS;
export const CHARGED_MODEL_IDS = Object.keys(CHARGED_MODELS) as ChargedModelId[];

/** torchtitan's FeedForward: int(2/3 × 4·dim), rounded up to a multiple of 256. */
export function swigluHidden(dim: number, multipleOf = 256): number {
  const hidden = Math.trunc((2 * 4 * dim) / 3);
  return multipleOf * Math.ceil(hidden / multipleOf);
}

/** One parameter tensor of the charged model. */
export interface ChargedParam {
  name: string;
  elements: number;
  /** The layer it belongs to: 0 the token embedding, 1…L the blocks, L + 1 the final norm and output. */
  layer: number;
}

/** A layer of the charged model, in forward order, with what a forward pass of it costs per token. */
export interface ChargedLayer {
  index: number;
  name: string;
  /** Parameter indices (into `params`) in registration order. */
  params: number[];
  elements: number;
  /** Forward FLOPs per token: 2 per weight of a matmul; an embedding lookup does none. */
  forwardFlopsPerToken: number;
  /** The FSDP unit `fully_shard` per block would put it in: its block, or the root (-1). */
  unit: number;
}

export interface ChargedModel {
  id: ChargedModelId;
  shape: TransformerShape;
  params: ChargedParam[];
  layers: ChargedLayer[];
  totalParams: number;
}

/** The model's parameters in torchtitan's registration order (tok_embeddings, layers.i.…, norm, output). */
export function chargedModel(id: string): ChargedModel {
  if (!(id in CHARGED_MODELS))
    throw new RangeError(
      `chargeAs: unknown model '${id}' (known: ${CHARGED_MODEL_IDS.join(', ')})`,
    );
  const shape: TransformerShape = CHARGED_MODELS[id as ChargedModelId];
  const { dim, vocab, ffnHidden } = shape;
  const headDim = dim / shape.heads;
  const kv = (shape.kvHeads ?? shape.heads) * headDim;
  const params: ChargedParam[] = [
    { name: 'tok_embeddings.weight', elements: vocab * dim, layer: 0 },
  ];
  for (let b = 0; b < shape.layers; b++) {
    const p = (name: string, elements: number) =>
      params.push({ name: `layers.${b}.${name}`, elements, layer: b + 1 });
    p('attention.wq.weight', dim * dim);
    p('attention.wk.weight', dim * kv);
    p('attention.wv.weight', dim * kv);
    p('attention.wo.weight', dim * dim);
    p('feed_forward.w1.weight', dim * ffnHidden);
    p('feed_forward.w2.weight', ffnHidden * dim);
    p('feed_forward.w3.weight', dim * ffnHidden);
    p('attention_norm.weight', dim);
    p('ffn_norm.weight', dim);
  }
  params.push({ name: 'norm.weight', elements: dim, layer: shape.layers + 1 });
  params.push({ name: 'output.weight', elements: dim * vocab, layer: shape.layers + 1 });
  const layers: ChargedLayer[] = [];
  for (let l = 0; l <= shape.layers + 1; l++) {
    const mine = params.flatMap((p, i) => (p.layer === l ? [i] : []));
    const elements = mine.reduce((a, i) => a + params[i]!.elements, 0);
    const isBlock = l >= 1 && l <= shape.layers;
    layers.push({
      index: l,
      name: l === 0 ? 'embedding' : isBlock ? `block ${l - 1}` : 'norm + output',
      params: mine,
      elements,
      // Norm weights are elementwise; the embedding is a lookup. Attention's s² term is not charged (6N per token).
      forwardFlopsPerToken: l === 0 ? 0 : 2 * (elements - (isBlock ? 2 * dim : dim)),
      unit: isBlock ? l - 1 : -1,
    });
  }
  return {
    id: id as ChargedModelId,
    shape,
    params,
    layers,
    totalParams: params.reduce((a, p) => a + p.elements, 0),
  };
}

/**
 * Which charged layers each of the toy model's `toyLayers` layers stands for: the charged layers split
 * into `toyLayers` contiguous runs as evenly as their count allows, so the toy's pass walks the charged
 * model's layers in the same order (forward first to last, backward last to first).
 */
export function layerGroups(charged: number, toyLayers: number): number[][] {
  if (!(toyLayers >= 1)) throw new RangeError(`a model needs at least one layer, got ${toyLayers}`);
  return Array.from({ length: toyLayers }, (_, i) => {
    const from = Math.round((i * charged) / toyLayers);
    const to = Math.round(((i + 1) * charged) / toyLayers);
    return Array.from({ length: to - from }, (_, k) => from + k);
  });
}
