import type * as tf from '@tensorflow/tfjs';

/**
 * The `dist` object a reader's program imports from 'ranks', shaped like torch.distributed.
 * Ownership: collectives never dispose their inputs; every tensor they return is new and
 * belongs to the caller (dispose it or wrap the work in tf.tidy).
 */
export type ReduceOp = 'sum' | 'avg' | 'max' | 'min' | 'prod';
export type AllReduceAlgorithm = 'auto' | 'ring' | 'two-shot';

export interface Work<T> {
  wait(): Promise<T>;
  isCompleted(): boolean;
}

export interface GroupOption { group?: ProcessGroupHandle }
export interface AsyncOption { async?: boolean }

export interface ProcessGroupHandle {
  readonly ranks: readonly number[];
  /** This rank's index inside the group, or -1 when it is not a member. */
  readonly rank: number;
  readonly size: number;
}

type Ret<T, O> = O extends { async: true } ? Work<T> : Promise<T>;

export interface Dist {
  readonly rank: number;
  readonly worldSize: number;
  readonly backend: 'webgpu' | 'wasm' | 'cpu';
  /** 'avg' on int32 truncates toward zero; 'auto' picks two-shot (see auto-algorithm.ts). */
  allReduce<O extends GroupOption & AsyncOption & { op?: ReduceOp; algorithm?: AllReduceAlgorithm }>(t: tf.Tensor, opts?: O): Ret<tf.Tensor, O>;
  /** Splits `t` (flattened) into worldSize chunks, returns this rank's reduced chunk (1-D; uneven sizes split like torch.tensor_split). */
  reduceScatter<O extends GroupOption & AsyncOption & { op?: ReduceOp }>(t: tf.Tensor, opts?: O): Ret<tf.Tensor, O>;
  /** Concatenates every rank's `t` along a new leading axis: shape [worldSize, ...t.shape]. */
  allGather<O extends GroupOption & AsyncOption>(t: tf.Tensor, opts?: O): Ret<tf.Tensor, O>;
  broadcast<O extends GroupOption & AsyncOption & { src: number }>(t: tf.Tensor, opts: O): Ret<tf.Tensor, O>;
  /** Result on `dst`; other ranks get back their input unchanged (a copy). */
  reduce<O extends GroupOption & AsyncOption & { dst: number; op?: ReduceOp }>(t: tf.Tensor, opts: O): Ret<tf.Tensor, O>;
  /** On `src`, `t` has leading axis worldSize; every rank receives its slice. Non-src ranks pass a tensor of the slice shape (or null) for shape. */
  scatter<O extends GroupOption & AsyncOption & { src: number }>(t: tf.Tensor | null, opts: O & { shape?: number[] }): Ret<tf.Tensor, O>;
  /** `dst` receives [worldSize, ...t.shape]; others receive null. */
  gather<O extends GroupOption & AsyncOption & { dst: number }>(t: tf.Tensor, opts: O): Ret<tf.Tensor | null, O>;
  barrier<O extends GroupOption & AsyncOption>(opts?: O): Ret<void, O>;
  send<O extends AsyncOption & { dst: number }>(t: tf.Tensor, opts: O): Ret<void, O>;
  recv<O extends AsyncOption & { src: number; dtype?: 'float32' | 'int32' }>(shape: number[], opts: O): Ret<tf.Tensor, O>;
  newGroup(ranks: number[]): ProcessGroupHandle;
}
