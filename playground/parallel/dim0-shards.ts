import * as tf from '@tensorflow/tfjs';

/**
 * How FSDP2 cuts one parameter across `size` ranks (torch/distributed/fsdp/_fully_shard/_fsdp_param.py,
 * `_init_sharded_param`, with `_chunk_with_empty` from _fsdp_common.py): `torch.chunk` on dim 0, so every
 * rank gets `ceil(dim0 / size)` rows except the last non-empty one (fewer) and any after it (none);
 * each local shard is padded with zero rows to that common size so all-gathers and reduce-scatters
 * move equal pieces.
 */
export interface Dim0Layout {
  readonly shape: readonly number[];
  /** Rows per rank after padding: ceil(dim0 / size). */
  readonly rows: number;
  /** Elements of one row (product of the other dimensions). */
  readonly rowSize: number;
  /** Elements of one padded shard. */
  readonly chunk: number;
  readonly size: number;
}

export function dim0Layout(shape: readonly number[], size: number): Dim0Layout {
  const rows = Math.ceil(shape[0]! / size);
  const rowSize = shape.slice(1).reduce((a, b) => a * b, 1);
  return { shape, rows, rowSize, chunk: rows * rowSize, size };
}

/** Real (unpadded) rows rank `r` holds: 0 for ranks past the end, as `_chunk_with_empty` gives them. */
export function ownRows(layout: Dim0Layout, r: number): number {
  return Math.max(0, Math.min(layout.rows, layout.shape[0]! - r * layout.rows));
}

/** Pads dim 0 to rows·size with zeros and flattens to [size, chunk]: row r is rank r's padded shard. */
export function padToChunks(layout: Dim0Layout, full: tf.Tensor): tf.Tensor2D {
  return tf.tidy(() => {
    const extra = layout.rows * layout.size - layout.shape[0]!;
    const rows = tf.reshape(full, [layout.shape[0]!, layout.rowSize]);
    const padded =
      extra > 0
        ? tf.pad(rows, [
            [0, extra],
            [0, 0],
          ])
        : rows;
    return tf.reshape(padded, [layout.size, layout.chunk]) as tf.Tensor2D;
  });
}

/** Rank `r`'s padded shard of a full parameter, flat. */
export function shardOf(layout: Dim0Layout, full: tf.Tensor, r: number): tf.Tensor1D {
  return tf.tidy(
    () =>
      tf.reshape(tf.slice(padToChunks(layout, full), [r, 0], [1, layout.chunk]), [
        layout.chunk,
      ]) as tf.Tensor1D,
  );
}

/** Inverse of {@link padToChunks}: [size, chunk] (or its flat form) back to the full parameter, padding dropped. */
export function fromChunks(layout: Dim0Layout, chunks: tf.Tensor): tf.Tensor {
  return tf.tidy(() => {
    const rows = tf.reshape(chunks, [layout.rows * layout.size, layout.rowSize]);
    return tf.reshape(tf.slice(rows, [0, 0], [layout.shape[0]!, layout.rowSize]), [
      ...layout.shape,
    ]);
  });
}
