import { REDUCE_WASM_BASE64 } from './reduce-wasm.ts';

export type KernelOp = 'sum' | 'prod' | 'max' | 'min';
export type KernelDtype = 'float32' | 'int32';

/** The SIMD kernel bound to one shared memory: dst[i] = dst[i] (op) src[i], byte addresses, element counts. */
export interface ReduceKernel {
  reduce(op: KernelOp, dtype: KernelDtype, dst: number, src: number, len: number): void;
  divide(dtype: KernelDtype, dst: number, len: number, n: number): void;
  /**
   * One pass over a chunk: reduce element-wise across the n regions whose byte addresses are the n i32 at
   * `table` (offset already applied), and store the result into all n. False when there is no fused kernel (int32 avg).
   */
  reduceIntoAll(
    op: KernelOp | 'avg',
    dtype: KernelDtype,
    table: number,
    n: number,
    len: number,
  ): boolean;
  /** Copies len 4-byte elements from src to dst (byte addresses; regions may overlap). */
  copy(dst: number, src: number, len: number): void;
}

type Fn3 = (a: number, b: number, c: number) => void;

let compiled: WebAssembly.Module | null = null;

function decodeBase64(text: string): Uint8Array {
  const bin = atob(text);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  return bytes;
}

/** Instantiates the kernel synchronously (workers and Node; a browser main thread refuses modules over 4 KB this way). */
export function instantiateReduceKernel(memory: WebAssembly.Memory): ReduceKernel {
  compiled ??= new WebAssembly.Module(decodeBase64(REDUCE_WASM_BASE64) as Uint8Array<ArrayBuffer>);
  return bindKernel(
    new WebAssembly.Instance(compiled, { env: { memory } }).exports as Record<string, Fn3>,
  );
}

/** Instantiates the kernel asynchronously: works on any thread. */
/** Compiles the kernel ahead of a run (warm ranks), so loadReduceKernel only has to instantiate it. */
export async function compileReduceKernel(): Promise<WebAssembly.Module> {
  return (compiled ??= await WebAssembly.compile(
    decodeBase64(REDUCE_WASM_BASE64) as Uint8Array<ArrayBuffer>,
  ));
}

export async function loadReduceKernel(memory: WebAssembly.Memory): Promise<ReduceKernel> {
  const module = await compileReduceKernel();
  return bindKernel(
    (await WebAssembly.instantiate(module, { env: { memory } })).exports as Record<string, Fn3>,
  );
}

function bindKernel(exports: Record<string, Fn3>): ReduceKernel {
  const table: Record<string, Fn3> = {};
  for (const op of ['sum', 'prod', 'max', 'min']) {
    table[`${op}float32`] = exports[`${op}_f32`]!;
    table[`${op}int32`] = exports[`${op}_i32`]!;
  }
  const fused: Record<string, Fn3> = {};
  for (const name of Object.keys(exports))
    if (name.startsWith('fused_')) fused[name.slice(6)] = exports[name]!;
  const copy = exports.copy!;
  const divF32 = exports.div_f32!;
  const divI32 = exports.div_i32!;
  return {
    reduce(op, dtype, dst, src, len) {
      if (len > 0) table[op + dtype]!(dst, src, len);
    },
    divide(dtype, dst, len, n) {
      if (len > 0) (dtype === 'float32' ? divF32 : divI32)(dst, len, n);
    },
    copy(dst, src, len) {
      if (len > 0 && dst !== src) copy(dst, src, len);
    },
    reduceIntoAll(op, dtype, table, n, len) {
      const f = fused[`${op}_${dtype === 'float32' ? 'f32' : 'i32'}`];
      if (!f) return false;
      if (len > 0) f(table, n, len);
      return true;
    },
  };
}
