import type { Dtype } from './call-descriptor.ts';
import { allocate, type Payload } from './typed-views.ts';

/** The parts of a tfjs backend the pool watches (tfjs-backend-cpu's MathBackendCPU has them all). */
interface WatchedBackend {
  data: { has(dataId: object): boolean };
  write(values: unknown, shape: number[], dtype: string): object;
  move(dataId: object, values: unknown, shape: number[], dtype: string, refCount: number): void;
  read(dataId: object): Promise<unknown>;
  readSync(dataId: object): unknown;
}

interface TfLike {
  getBackend(): string;
  backend(): unknown;
}

/** One pooled array: the backend's data ids whose values live in it, and the calls still using it. */
interface Block {
  readonly array: Payload;
  readonly holders: object[];
  pins: number;
  /** The pool that lent it (each rank has its own; the ranks of one thread share the backend). */
  readonly pool: TensorOutputPool;
}

/**
 * What a backend's hooks know, once per backend however many ranks' pools share it (logical ranks,
 * rank/rank-host.ts): the lent arrays by buffer and by the data ids their values went to.
 */
interface BackendHooks {
  readonly backend: WatchedBackend;
  readonly byBuffer: WeakMap<ArrayBufferLike, Block>;
  readonly byDataId: WeakMap<object, Block>;
  /** True while `dist` itself reads a collective's input: that read does not hand the array to anyone. */
  quiet: boolean;
}

/** Free arrays kept for reuse, per rank; a freed array beyond this is left to the garbage collector. */
export const POOL_FREE_BYTES = 32 << 20;

const keyOf = (dtype: Dtype, length: number) => `${dtype}:${length}`;

/**
 * Arrays for the tensors `dist` returns, reused once no tensor holds them. On the CPU backend a tensor made
 * from a typed array keeps that very array (and slice returns subarray views of it), so a fresh array per
 * result costs a first touch of new pages and garbage-collector work at every call. An array goes back to the
 * pool only when every backend entry whose values live in its buffer is gone (the pool sees them all at the
 * backend's `write`/`move`), no call still reads it, and nothing read it out (`data()`, `dataSync()` and
 * everything built on them hand out the array itself: those arrays are the reader's for good).
 * The WASM backend copies a tensor's values into its heap when the tensor is made, so there an array is free
 * again as soon as its tensor exists. WebGPU keeps the array until it uploads it: there every result is new.
 */
export class TensorOutputPool {
  static readonly #hooked = new WeakMap<object, BackendHooks>();
  readonly #tf: TfLike;
  #hooks: BackendHooks | null = null;
  #watched: unknown = null;
  readonly #free = new Map<string, Payload[]>();
  #freeBytes = 0;
  /** This pool's lent arrays (the backend's hooks see every pool's). */
  readonly #byBuffer = new Map<ArrayBufferLike, Block>();
  /** Arrays lent on a backend that copies a tensor's values at creation (WASM): free again at `release`. */
  readonly #copied = new Set<ArrayBufferLike>();
  /** Arrays handed out from the free lists, and arrays read out (kept by the reader from then on). */
  reused = 0;
  escaped = 0;

  constructor(tf: TfLike) {
    this.#tf = tf;
  }

  /** The hooks of the CPU backend this pool watches, when it is the current one. */
  #cpu(): BackendHooks | null {
    if (this.#tf.getBackend() !== 'cpu') return null;
    const b = this.#tf.backend();
    if (b === this.#watched) return this.#hooks;
    if (this.#watched !== null) return null; // the reader switched backends: stay with fresh arrays
    this.#watched = b;
    this.#hooks = TensorOutputPool.#hook(b as WatchedBackend);
    return this.#hooks;
  }

  /** Wraps the backend's write, move and reads once, for every pool on this thread. */
  static #hook(b: WatchedBackend): BackendHooks {
    const known = TensorOutputPool.#hooked.get(b);
    if (known) return known;
    const hooks: BackendHooks = {
      backend: b,
      byBuffer: new WeakMap(),
      byDataId: new WeakMap(),
      quiet: false,
    };
    TensorOutputPool.#hooked.set(b, hooks);
    const write = b.write.bind(b);
    const move = b.move.bind(b);
    const read = b.read.bind(b);
    const readSync = b.readSync.bind(b);
    const hold = (dataId: object, values: unknown) => {
      const block = ArrayBuffer.isView(values) ? hooks.byBuffer.get(values.buffer) : undefined;
      if (!block) return;
      block.holders.push(dataId);
      hooks.byDataId.set(dataId, block);
    };
    // Someone outside the collectives now holds this array: it never returns to the pool.
    const escape = (dataId: object) => {
      if (hooks.quiet) return;
      const block = hooks.byDataId.get(dataId);
      if (block) block.pool.#escape(block);
    };
    b.write = (values, shape, dtype) => {
      const id = write(values, shape, dtype);
      hold(id, values);
      return id;
    };
    b.move = (dataId, values, shape, dtype, refCount) => {
      move(dataId, values, shape, dtype, refCount);
      hold(dataId, values);
    };
    b.readSync = (dataId) => {
      escape(dataId);
      return readSync(dataId);
    };
    b.read = (dataId) => {
      escape(dataId);
      return read(dataId);
    };
    return hooks;
  }

  #escape(block: Block): void {
    if (!this.#byBuffer.delete(block.array.buffer)) return;
    this.#hooks?.byBuffer.delete(block.array.buffer);
    this.escaped++;
  }

  /** Moves every array no tensor and no call holds any more to the free lists. */
  #reclaim(hooks: BackendHooks): void {
    for (const block of this.#byBuffer.values()) {
      if (block.pins > 0 || block.holders.some((id) => hooks.backend.data.has(id))) continue;
      this.#byBuffer.delete(block.array.buffer);
      hooks.byBuffer.delete(block.array.buffer);
      this.#keep(block.array);
    }
  }

  #keep(array: Payload): void {
    if (this.#freeBytes + array.byteLength > POOL_FREE_BYTES) return;
    const key = keyOf(array instanceof Int32Array ? 'int32' : 'float32', array.length);
    const list = this.#free.get(key) ?? [];
    list.push(array);
    this.#free.set(key, list);
    this.#freeBytes += array.byteLength;
  }

  #pop(dtype: Dtype, length: number): Payload | undefined {
    const array = this.#free.get(keyOf(dtype, length))?.pop();
    if (array) {
      this.#freeBytes -= array.byteLength;
      this.reused++;
    }
    return array;
  }

  /** Leaves every free array to the garbage collector (arrays still held stay tracked). */
  trim(): void {
    this.#free.clear();
    this.#freeBytes = 0;
  }

  /** An output array for a collective; call `release` once its tensor is made (or the call failed). */
  take(dtype: Dtype, length: number): Payload {
    if (length > 0 && this.#tf.getBackend() === 'wasm') {
      const out = this.#pop(dtype, length) ?? allocate(dtype, length);
      this.#copied.add(out.buffer);
      return out;
    }
    const hooks = this.#cpu();
    if (!hooks || length === 0) return allocate(dtype, length);
    this.#reclaim(hooks);
    const out = this.#pop(dtype, length) ?? allocate(dtype, length);
    const block: Block = { array: out, holders: [], pins: 1, pool: this };
    this.#byBuffer.set(out.buffer, block);
    hooks.byBuffer.set(out.buffer, block);
    return out;
  }

  /** The call that took `array` (or pinned it) no longer uses it. */
  release(array: Payload | null): void {
    // Kept only if its tensor was made on WASM (which copied it), not after a switch of backend mid-call.
    if (array && this.#copied.delete(array.buffer)) {
      if (this.#tf.getBackend() === 'wasm') this.#keep(array);
      return;
    }
    const block = array ? this.#byBuffer.get(array.buffer) : undefined;
    if (block) block.pins--;
  }

  /**
   * Starts reading a collective's input tensor without handing its array out, and keeps that array from
   * reuse until `done()`: a queued or point-to-point call copies it in later.
   */
  readInput<T>(dataId: object, read: () => Promise<T>): { data: Promise<T>; done: () => void } {
    const hooks = this.#cpu() ?? this.#hooks;
    if (hooks) hooks.quiet = true;
    let data: Promise<T>;
    try {
      data = read();
    } finally {
      if (hooks) hooks.quiet = false;
    }
    const block = hooks?.byDataId.get(dataId);
    if (!block || this.#byBuffer.get(block.array.buffer) !== block) return { data, done: () => {} };
    block.pins++;
    let once = false;
    return {
      data,
      done: () => {
        if (!once) block.pins--;
        once = true;
      },
    };
  }
}
