import * as tf from '@tensorflow/tfjs';

/**
 * A group of parameters laid end to end in one flat vector, padded to a multiple of the world size
 * and cut into equal chunks: rank r owns elements [r·chunk, (r+1)·chunk).
 */
export interface FlatGroup {
  readonly params: readonly number[];
  readonly sizes: readonly number[];
  readonly numel: number;
  readonly padded: number;
  readonly chunk: number;
}

export function flatGroup(
  params: readonly number[],
  sizes: readonly number[],
  worldSize: number,
): FlatGroup {
  const numel = sizes.reduce((a, b) => a + b, 0);
  const padded = Math.ceil(numel / worldSize) * worldSize;
  return { params, sizes, numel, padded, chunk: padded / worldSize };
}

/** Concatenate `tensors` flat and zero-pad to the group's padded length. */
export function flattenPadded(group: FlatGroup, tensors: readonly tf.Tensor[]): tf.Tensor1D {
  return tf.tidy(() => {
    const flat = tf.concat(tensors.map((t) => tf.reshape(t, [-1])));
    return (
      group.padded > group.numel ? tf.pad(flat, [[0, group.padded - group.numel]]) : flat
    ) as tf.Tensor1D;
  });
}

/** This rank's chunk of a padded flat vector. */
export function ownChunk(group: FlatGroup, flat: tf.Tensor, rank: number): tf.Tensor1D {
  return tf.slice(flat, [rank * group.chunk], [group.chunk]) as tf.Tensor1D;
}

/** Inverse of {@link flattenPadded}: drop the padding and cut back into tensors of `shapes`. */
export function unflatten(
  group: FlatGroup,
  flat: tf.Tensor,
  shapes: readonly (readonly number[])[],
): tf.Tensor[] {
  return tf.tidy(() => {
    const body = tf.slice(tf.reshape(flat, [-1]), [0], [group.numel]);
    return tf.split(body, [...group.sizes]).map((t, j) => tf.reshape(t, [...shapes[j]!]));
  });
}
