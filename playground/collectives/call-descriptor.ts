import type { ReduceOp } from './dist-api.ts';

/** What a rank is calling, in the words peers compare to catch mismatched collectives. */
export type CollectiveKind = 'allReduce' | 'reduceScatter' | 'allGather' | 'broadcast' | 'reduce' | 'scatter' | 'gather' | 'barrier';
export type Dtype = 'float32' | 'int32';
export type Algorithm = 'ring' | 'two-shot';

export interface CallDescriptor {
  kind: CollectiveKind;
  op: ReduceOp | null;
  dtype: Dtype;
  /** Elements each rank contributes (scatter: elements each rank receives). */
  length: number;
  /** src or dst rank (global) for rooted collectives, else -1. */
  root: number;
  algorithm: Algorithm | null;
}

const KINDS: CollectiveKind[] = ['allReduce', 'reduceScatter', 'allGather', 'broadcast', 'reduce', 'scatter', 'gather', 'barrier'];
const OPS: (ReduceOp | null)[] = [null, 'sum', 'avg', 'max', 'min', 'prod'];
const DTYPES: Dtype[] = ['float32', 'int32'];
const ALGORITHMS: (Algorithm | null)[] = [null, 'ring', 'two-shot'];

/** Writes the 6 descriptor words after a leading sequence word (written last, by the caller). */
export function encodeDescriptor(words: Int32Array, at: number, d: CallDescriptor): void {
  Atomics.store(words, at, KINDS.indexOf(d.kind));
  Atomics.store(words, at + 1, OPS.indexOf(d.op));
  Atomics.store(words, at + 2, DTYPES.indexOf(d.dtype));
  Atomics.store(words, at + 3, d.length);
  Atomics.store(words, at + 4, d.root);
  Atomics.store(words, at + 5, ALGORITHMS.indexOf(d.algorithm));
}

export function decodeDescriptor(words: Int32Array, at: number): CallDescriptor {
  return {
    kind: KINDS[Atomics.load(words, at)] ?? 'barrier',
    op: OPS[Atomics.load(words, at + 1)] ?? null,
    dtype: DTYPES[Atomics.load(words, at + 2)] ?? 'float32',
    length: Atomics.load(words, at + 3),
    root: Atomics.load(words, at + 4),
    algorithm: ALGORITHMS[Atomics.load(words, at + 5)] ?? null,
  };
}

/** The fields in which two ranks' calls at the same sequence number differ (empty when they agree). */
export function descriptorDifferences(a: CallDescriptor, b: CallDescriptor): string[] {
  const fields: (keyof CallDescriptor)[] = ['kind', 'op', 'dtype', 'length', 'root', 'algorithm'];
  return fields.filter((f) => a[f] !== b[f]).map((f) => (f === 'length' ? 'size' : f));
}

/** e.g. `allReduce(op=sum, 12 float32, ring)`. */
export function describeCall(d: CallDescriptor): string {
  const parts: string[] = [];
  if (d.op) parts.push(`op=${d.op}`);
  if (d.kind !== 'barrier') parts.push(`${d.length} ${d.dtype}`);
  if (d.root >= 0) parts.push(`${d.kind === 'broadcast' || d.kind === 'scatter' ? 'src' : 'dst'}=${d.root}`);
  if (d.algorithm) parts.push(d.algorithm);
  return `${d.kind}(${parts.join(', ')})`;
}
