/**
 * Activation memory of one transformer layer, after Korthikanti et al. 2022, "Reducing Activation
 * Recomputation in Large Transformer Models" (arXiv:2205.05198): §4.1 Eq. 1 (no parallelism),
 * §4.2.1 Eq. 2 (tensor parallel), §5 (full recomputation keeps 2sbh per layer; selective, Eq. 6,
 * drops the 5as/h term). The paper counts 16-bit activations (2 bytes) and 1-byte dropout masks.
 */

export interface TransformerShape {
  /** Sequence length s. */
  seq: number;
  /** Micro-batch size b (sequences per rank per forward). */
  micro: number;
  /** Hidden size h. */
  hidden: number;
  /** Attention heads a. */
  heads: number;
  /** Layers L. */
  layers?: number;
  /** Tensor-parallel degree t (1 = none). */
  tensorParallel?: number;
}

export type Recompute = 'none' | 'selective' | 'full';
export const RECOMPUTE_MODES: readonly Recompute[] = ['none', 'selective', 'full'];

/** The paper's per-layer split (no parallelism), in bytes: attention 11sbh + 5as²b, MLP 19sbh, LayerNorms 4sbh. */
export function activationBreakdown(x: TransformerShape): {
  attention: number;
  attentionScores: number;
  mlp: number;
  layerNorm: number;
} {
  const sbh = x.seq * x.micro * x.hidden;
  return {
    attention: 11 * sbh,
    attentionScores: 5 * x.heads * x.seq * x.seq * x.micro,
    mlp: 19 * sbh,
    layerNorm: 4 * sbh,
  };
}

/**
 * Bytes of activations one layer keeps for backward. none: sbh(34 + 5as/h), or with tensor parallelism
 * sbh(10 + 24/t + 5as/(ht)); selective: the attention-score term is recomputed; full: only the layer input (2sbh).
 */
export function activationBytesPerLayer(
  x: TransformerShape,
  recompute: Recompute = 'none',
): number {
  const t = x.tensorParallel ?? 1;
  const sbh = x.seq * x.micro * x.hidden;
  const scores = (5 * x.heads * x.seq) / (x.hidden * t);
  if (recompute === 'full') return 2 * sbh;
  if (recompute === 'selective') return sbh * (10 + 24 / t);
  return sbh * (10 + 24 / t + scores);
}

/** All L layers (the paper's Eq. 5 without pipeline or sequence parallelism). */
export function activationBytes(x: TransformerShape, recompute: Recompute = 'none'): number {
  return activationBytesPerLayer(x, recompute) * (x.layers ?? 1);
}

/** 5as/h against 34: the attention scores dominate once this passes 34 (the paper's §5 argument). */
export function attentionScoreRatio(x: TransformerShape): number {
  return (5 * x.heads * x.seq) / x.hidden;
}

/**
 * Forward matmul FLOPs of one layer: 24bsh² (QKV, output projection, 4h MLP) + 4bs²h (QKᵀ and scores·V),
 * counting a multiply-add as 2 FLOPs (Narayanan et al. 2021, §5.1; Korthikanti et al. 2022, Appendix A).
 */
export function forwardFlopsPerLayer(x: TransformerShape): number {
  const { seq: s, micro: b, hidden: h } = x;
  return 24 * b * s * h * h + 4 * b * s * s * h;
}

/** Training FLOPs per layer: forward + backward (2× forward) + whatever the recomputation replays. */
export function trainingFlopsPerLayer(x: TransformerShape, recompute: Recompute = 'none'): number {
  const f = forwardFlopsPerLayer(x);
  const replay =
    recompute === 'full'
      ? f
      : recompute === 'selective'
        ? 4 * x.micro * x.seq * x.seq * x.hidden
        : 0;
  return 3 * f + replay;
}

/** Extra compute of a recomputation mode, as a fraction of the training FLOPs without it. */
export function recomputeOverhead(x: TransformerShape, recompute: Recompute): number {
  return trainingFlopsPerLayer(x, recompute) / trainingFlopsPerLayer(x, 'none') - 1;
}

/** §5: full recomputation "can introduce as much as 30–40 % computational time overhead". */
export const PAPER_FULL_RECOMPUTE_OVERHEAD = { low: 0.3, high: 0.4 } as const;

/**
 * §5: selective recomputation saves 70 % of GPT-3's activation memory "at the expense of only 2.7 % FLOPs
 * overhead" (quoted too in Hugging Face Accelerate's Megatron-LM guide). The paper's own FLOP count; the
 * single forward replay of the attention core that `recomputeOverhead` counts comes to less.
 */
export const PAPER_SELECTIVE_RECOMPUTE_OVERHEAD_GPT3 = 0.027;

/** GPT-3 175B as the paper's Table 3 lists it: 96 heads, hidden 12288, 96 layers, sequence 2048. */
export const GPT3_175B_PARAMS = 175e9;
export const GPT3_175B: Required<Omit<TransformerShape, 'micro' | 'tensorParallel'>> = {
  seq: 2048,
  hidden: 12288,
  heads: 96,
  layers: 96,
};
/**
 * GPT-3 XL (1.3B) from Brown et al. 2020, Table 2.1: 24 layers, d_model 2048, 24 heads, context 2048. The table
 * also gives d_head 128, so 24 × 128 ≠ d_model (a known quirk of that row); the formula needs only a and h.
 */
export const GPT3_XL: Required<Omit<TransformerShape, 'micro' | 'tensorParallel'>> = {
  seq: 2048,
  hidden: 2048,
  heads: 24,
  layers: 24,
};

/** GPT-3 6.7B from Brown et al. 2020, Table 2.1: 32 layers, d_model 4096, 32 heads (d_head 128), context 2048. */
export const GPT3_6_7B_PARAMS = 6.7e9;
export const GPT3_6_7B: Required<Omit<TransformerShape, 'micro' | 'tensorParallel'>> = {
  seq: 2048,
  hidden: 4096,
  heads: 32,
  layers: 32,
};

/** Micro-batches each rank runs (gradient accumulation) to reach its share of the global batch. */
export function accumulationSteps(perRankSequences: number, micro: number): number {
  if (perRankSequences % micro !== 0)
    throw new RangeError(
      `per-rank batch ${perRankSequences} is not a multiple of micro-batch ${micro}`,
    );
  return perRankSequences / micro;
}
