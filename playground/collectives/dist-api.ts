import type * as tf from '@tensorflow/tfjs';
import type { AllReduceAlgorithm, Backend, CommStats, ReduceOp } from '../contract/protocol.ts';

export type {
  AllReduceAlgorithm,
  CommStats,
  ReduceOp,
  SimulatedClusterOptions,
} from '../contract/protocol.ts';
// The reader's face of virtual time is declared with it, in simulation/; `dist` re-exports it.
import type { Simulation } from '../simulation/simulation-api.ts';
export type { ActualSize, ChargeAs, Simulation } from '../simulation/simulation-api.ts';

/**
 * A collective started with `{ async: true }`, as torch.distributed's `Work`: the rank keeps computing
 * while it runs, and `wait()` returns its result (or throws its error).
 */
export interface Work<T> {
  /** @returns the collective's result once every member has taken part. */
  wait(): Promise<T>;
  /** @returns true once the collective has finished (successfully or not). */
  isCompleted(): boolean;
}

export interface GroupOption {
  /** Run the collective on this group (from `dist.newGroup`) instead of every rank. */
  group?: ProcessGroupHandle;
}
export interface AsyncOption {
  /** Return a {@link Work} at once instead of a promise. */
  async?: boolean;
}

/** A group of ranks made by `dist.newGroup(ranks)`; pass it as `{ group }` to any collective. */
export interface ProcessGroupHandle {
  /** Global ranks of the members, ascending. */
  readonly ranks: readonly number[];
  /** This rank's index inside the group, or -1 when it is not a member. */
  readonly rank: number;
  readonly size: number;
}

type Ret<T, O> = O extends { async: true } ? Work<T> : Promise<T>;

/**
 * The `dist` object a reader's program imports from 'ranks', shaped like torch.distributed.
 * Ownership: collectives never dispose their inputs; every tensor they return is new and
 * belongs to the caller (dispose it or wrap the work in tf.tidy).
 */
export interface Dist {
  /** This rank's number, 0..worldSize−1 (torch: `dist.get_rank()`). */
  readonly rank: number;
  /** How many ranks run the program (torch: `dist.get_world_size()`). */
  readonly worldSize: number;
  /** The tfjs backend this rank runs on. */
  readonly backend: Backend;
  /** Virtual time on a simulated cluster, or null when the run is real time on this machine. */
  readonly simulation: Simulation | null;

  /**
   * Reduces `t` across every rank of the group; every rank gets the result (torch: `dist.all_reduce`).
   * 'avg' on int32 truncates toward zero; 'auto' picks two-shot (see auto-algorithm.ts).
   * @param t a float32 or int32 tensor of the same shape on every rank.
   * @param opts `op` (default 'sum'), `algorithm` ('auto', 'ring', 'two-shot'), `group`, `async`.
   * @returns a new tensor of `t`'s shape holding the reduction.
   * @example const g = await dist.allReduce(grad, { op: 'avg' });
   */
  allReduce<
    O extends GroupOption & AsyncOption & { op?: ReduceOp; algorithm?: AllReduceAlgorithm },
  >(
    t: tf.Tensor,
    opts?: O,
  ): Ret<tf.Tensor, O>;

  /**
   * Reduces `t` across the group and returns this rank's chunk (torch: `dist.reduce_scatter_tensor`).
   * @param t flattened and split into group-size chunks; uneven sizes split like torch.tensor_split.
   * @param opts `op` (default 'sum'), `group`, `async`.
   * @returns this rank's reduced chunk, 1-D.
   * @example const shard = await dist.reduceScatter(flatGrads, { op: 'avg' });
   */
  reduceScatter<O extends GroupOption & AsyncOption & { op?: ReduceOp }>(
    t: tf.Tensor,
    opts?: O,
  ): Ret<tf.Tensor, O>;

  /**
   * Gathers every rank's `t` onto every rank (torch: `dist.all_gather_into_tensor`).
   * @param t a tensor of the same shape on every rank.
   * @param opts `group`, `async`.
   * @returns shape [groupSize, ...t.shape], rank k's tensor at index k.
   * @example const all = await dist.allGather(tf.scalar(dist.rank)); // [0, 1, 2, 3]
   */
  allGather<O extends GroupOption & AsyncOption>(t: tf.Tensor, opts?: O): Ret<tf.Tensor, O>;

  /**
   * Copies `src`'s tensor to every rank (torch: `dist.broadcast`).
   * @param t on `src` the data; elsewhere a tensor of the same shape and dtype (its values are ignored).
   * @param opts `src` (global rank, required), `group`, `async`.
   * @returns a new tensor holding `src`'s values.
   * @example const w0 = await dist.broadcast(weights, { src: 0 });
   */
  broadcast<O extends GroupOption & AsyncOption & { src: number }>(
    t: tf.Tensor,
    opts: O,
  ): Ret<tf.Tensor, O>;

  /**
   * Reduces `t` across the group onto `dst` only (torch: `dist.reduce`).
   * @param t a tensor of the same shape on every rank.
   * @param opts `dst` (global rank, required), `op` (default 'sum'), `group`, `async`.
   * @returns on `dst` the reduction; on other ranks a copy of their own input.
   * @example const total = await dist.reduce(loss, { dst: 0 });
   */
  reduce<O extends GroupOption & AsyncOption & { dst: number; op?: ReduceOp }>(
    t: tf.Tensor,
    opts: O,
  ): Ret<tf.Tensor, O>;

  /**
   * Sends slice k of `src`'s tensor to the group's k-th rank (torch: `dist.scatter`).
   * @param t on `src` a tensor with leading axis groupSize; elsewhere a tensor of the slice shape, or null with `{ shape }`.
   * @param opts `src` (global rank, required), `shape`/`dtype` (non-src ranks passing null), `group`, `async`.
   * @returns this rank's slice.
   * @example const mine = await dist.scatter(dist.rank === 0 ? batches : null, { src: 0, shape: [32, 10] });
   */
  scatter<O extends GroupOption & AsyncOption & { src: number }>(
    t: tf.Tensor | null,
    opts: O & { shape?: number[]; dtype?: 'float32' | 'int32' },
  ): Ret<tf.Tensor, O>;

  /**
   * Collects every rank's `t` on `dst` (torch: `dist.gather`).
   * @param t a tensor of the same shape on every rank.
   * @param opts `dst` (global rank, required), `group`, `async`.
   * @returns on `dst` shape [groupSize, ...t.shape]; elsewhere null.
   * @example const losses = await dist.gather(loss, { dst: 0 });
   */
  gather<O extends GroupOption & AsyncOption & { dst: number }>(
    t: tf.Tensor,
    opts: O,
  ): Ret<tf.Tensor | null, O>;

  /**
   * Waits until every rank of the group has called it (torch: `dist.barrier`).
   * @param opts `group`, `async`.
   * @returns nothing, once every member arrived.
   * @example await dist.barrier();
   */
  barrier<O extends GroupOption & AsyncOption>(opts?: O): Ret<void, O>;

  /**
   * Sends `t` to rank `dst`, which must call `recv` (torch: `dist.send`). Returns once the data is in
   * `dst`'s mailbox, so a ring of send-then-recv does not deadlock.
   * @param t a float32 or int32 tensor.
   * @param opts `dst` (global rank, required), `async`.
   * @returns nothing, once the message is delivered to the mailbox.
   * @example await dist.send(chunk, { dst: (dist.rank + 1) % dist.worldSize });
   */
  send<O extends AsyncOption & { dst: number }>(t: tf.Tensor, opts: O): Ret<void, O>;

  /**
   * Receives a tensor sent by rank `src` (torch: `dist.recv`).
   * @param shape the shape of the message (the sender's tensor must have as many elements).
   * @param opts `src` (global rank, required), `dtype` (default 'float32'), `async`.
   * @returns a new tensor of `shape`.
   * @example const chunk = await dist.recv([256], { src: (dist.rank + dist.worldSize - 1) % dist.worldSize });
   */
  recv<O extends AsyncOption & { src: number; dtype?: 'float32' | 'int32' }>(
    shape: number[],
    opts: O,
  ): Ret<tf.Tensor, O>;

  /**
   * Makes a group of some ranks (torch: `dist.new_group`). Every rank may call it; ranks naming the same
   * members get the same group.
   * @param ranks global ranks of the members, each once.
   * @returns a handle to pass as `{ group }`.
   * @example const pair = dist.newGroup([0, 1]); if (pair.rank >= 0) await dist.allReduce(t, { group: pair });
   */
  newGroup(ranks: number[]): ProcessGroupHandle;

  /**
   * The bytes this rank's collectives moved so far, counted by the runtime itself.
   * @returns per kind ('allReduce', 'send', …): bytes sent, bytes received and calls made.
   * @example console.log(dist.commStats().allReduce?.sent);
   */
  commStats(): CommStats;
}
