import {
  ALL_REDUCE_ALGORITHMS,
  COLLECTIVE_KINDS,
  DTYPES,
  REDUCE_OPS,
  type Algorithm,
  type CollectiveKind,
  type Dtype,
  type ReduceOp,
} from '../contract/protocol.ts';

export type { Algorithm, CollectiveKind, Dtype } from '../contract/protocol.ts';

/** What a rank is calling, in the words peers compare to catch mismatched collectives. */
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

// Wire codes are indexes into the contract's lists (null is code 0 where a field may be empty).
const KINDS: readonly CollectiveKind[] = COLLECTIVE_KINDS;
const OPS: readonly (ReduceOp | null)[] = [null, ...REDUCE_OPS];
const ALGORITHMS: readonly (Algorithm | null)[] = [
  null,
  ...ALL_REDUCE_ALGORITHMS.filter((a): a is Algorithm => a !== 'auto'),
];

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
  if (d.root >= 0)
    parts.push(`${d.kind === 'broadcast' || d.kind === 'scatter' ? 'src' : 'dst'}=${d.root}`);
  if (d.algorithm) parts.push(d.algorithm);
  return `${d.kind}(${parts.join(', ')})`;
}
