import type { Dtype } from './call-descriptor.ts';

export type Payload = Float32Array | Int32Array;

/** A typed view of `len` elements at byte offset `at` of the shared buffer. */
export function sharedView(
  buffer: ArrayBufferLike,
  dtype: Dtype,
  at: number,
  len: number,
): Payload {
  return dtype === 'float32' ? new Float32Array(buffer, at, len) : new Int32Array(buffer, at, len);
}

export function allocate(dtype: Dtype, len: number): Payload {
  return dtype === 'float32' ? new Float32Array(len) : new Int32Array(len);
}

/** Chunk c of m elements split n ways; chunks past 64 elements start on 64-byte lines for the SIMD kernel. */
export function ringChunk(m: number, n: number, c: number): [start: number, len: number] {
  let size = Math.ceil(m / n);
  if (size > 64) size = Math.ceil(size / 16) * 16;
  const start = Math.min(m, c * size);
  return [start, Math.min(m, start + size) - start];
}

/** torch.tensor_split: the first m % n chunks get one extra element. */
export function splitChunk(m: number, n: number, c: number): [start: number, len: number] {
  const base = Math.floor(m / n);
  const extra = m % n;
  return [c * base + Math.min(c, extra), base + (c < extra ? 1 : 0)];
}
