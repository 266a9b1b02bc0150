import {
  ALL_REDUCE_ALGORITHMS,
  DTYPES,
  REDUCE_OPS,
  isOneOf,
  type AllReduceAlgorithm,
  type Dtype,
  type ReduceOp,
} from '../contract/protocol.ts';
import type { GroupInfo } from './group-registry.ts';
import type { Payload } from './typed-views.ts';

/**
 * Every check of a collective's arguments, in one place (as tfjs's convertToTensor), so every message
 * names the call and the rule in the same words. A check throws at the call, before anything is queued.
 */

/** A payload now, or one still being read from a tensor: its size is known at the call, its data later. */
export type Input = Payload | { dtype: Dtype; length: number; data: Promise<Payload> };

export const dtypeOf = (p: Payload): Dtype => (p instanceof Int32Array ? 'int32' : 'float32');
export const inputInfo = (i: Input): { dtype: Dtype; length: number } =>
  ArrayBuffer.isView(i)
    ? { dtype: dtypeOf(i), length: i.length }
    : { dtype: i.dtype, length: i.length };

/** The options object of a call; `required` keys must be present. */
export function checkOptions(
  name: string,
  o: unknown,
  required: readonly string[] = [],
): Record<string, unknown> {
  if (o === undefined && required.length === 0) return {};
  if (typeof o !== 'object' || o === null)
    throw new Error(
      `${name}: options must be an object${required.length ? ` with ${required.join(', ')}` : ''}`,
    );
  for (const k of required) if (!(k in o)) throw new Error(`${name}: missing option ${k}`);
  return o as Record<string, unknown>;
}

export function checkOp(name: string, op: unknown): ReduceOp {
  if (op === undefined) return 'sum';
  if (!isOneOf(REDUCE_OPS, op))
    throw new Error(
      `${name}: unknown op ${JSON.stringify(op)}; use one of ${REDUCE_OPS.join(', ')}`,
    );
  return op;
}

export function checkAlgorithm(name: string, algorithm: unknown): AllReduceAlgorithm {
  if (algorithm === undefined) return 'auto';
  if (!isOneOf(ALL_REDUCE_ALGORITHMS, algorithm))
    throw new Error(
      `${name}: unknown algorithm ${JSON.stringify(algorithm)}; use one of ${ALL_REDUCE_ALGORITHMS.join(', ')}`,
    );
  return algorithm;
}

export function checkDtype(name: string, dtype: unknown): Dtype {
  if (dtype === undefined) return 'float32';
  if (!isOneOf(DTYPES, dtype))
    throw new Error(`${name}: dtype must be ${DTYPES.join(' or ')}, got ${JSON.stringify(dtype)}`);
  return dtype;
}

export function checkShape(name: string, shape: unknown): number[] {
  if (!Array.isArray(shape) || !shape.every((d) => Number.isInteger(d) && d >= 0))
    throw new Error(
      `${name}: shape must be an array of non-negative integers, got ${JSON.stringify(shape)}`,
    );
  return shape as number[];
}

/** This rank must belong to the group it calls on. */
export function checkMember(name: string, group: GroupInfo, rank: number): void {
  if (group.indexOf(rank) < 0)
    throw new Error(`${name}: rank ${rank} is not a member of group [${group.members.join(', ')}]`);
}

/** A rooted collective's src or dst: a global rank inside the group. */
export function checkRoot(
  name: string,
  key: 'src' | 'dst',
  value: unknown,
  group: GroupInfo,
  worldSize: number,
): number {
  if (!Number.isInteger(value) || group.indexOf(value as number) < 0) {
    const within = group.slot === 0 ? `0..${worldSize - 1}` : `[${group.members.join(', ')}]`;
    throw new Error(`${name}: ${key} must be a rank in ${within}, got ${JSON.stringify(value)}`);
  }
  return value as number;
}

/** A point-to-point peer: another rank of the world. */
export function checkPeer(
  name: 'send' | 'recv',
  key: 'src' | 'dst',
  value: unknown,
  rank: number,
  worldSize: number,
): number {
  if (!Number.isInteger(value) || (value as number) < 0 || (value as number) >= worldSize) {
    throw new Error(
      `${name}: ${key} must be a rank in 0..${worldSize - 1}, got ${JSON.stringify(value)}`,
    );
  }
  if (value === rank) throw new Error(`${name}: rank ${rank} cannot ${name} to itself`);
  return value as number;
}

/** Tensors as the collectives need them: shape, dtype, and the data read once (with `await t.data()`). */
export interface TensorLike {
  readonly dtype: string;
  readonly shape: number[];
  readonly size: number;
  readonly isDisposed: boolean;
  data(): Promise<unknown>;
}

/** Converts a reader's tensor into a collective's input: checks it is a live float32 or int32 tf.Tensor. */
export function tensorInput(
  name: string,
  t: unknown,
  isTensor: (t: unknown) => t is TensorLike,
  read: (t: TensorLike) => Promise<unknown> = (c) => c.data(),
): { input: Input & { dtype: Dtype }; shape: number[] } {
  const checked = checkTensor(name, t, isTensor);
  return {
    input: {
      dtype: checked.dtype as Dtype,
      length: checked.size,
      data: read(checked) as Promise<Payload>,
    },
    shape: checked.shape,
  };
}

/** A live float32 or int32 tensor, without reading it (non-src ranks of scatter only need its shape). */
export function checkTensor(
  name: string,
  t: unknown,
  isTensor: (t: unknown) => t is TensorLike,
): TensorLike & { dtype: Dtype } {
  if (!isTensor(t))
    throw new Error(`${name}: expected a tf.Tensor, got ${t === null ? 'null' : typeof t}`);
  if (t.isDisposed) throw new Error(`${name}: the tensor was already disposed`);
  if (!isOneOf(DTYPES, t.dtype))
    throw new Error(`${name}: only ${DTYPES.join(' and ')} tensors are supported, got ${t.dtype}`);
  return t as TensorLike & { dtype: Dtype };
}
