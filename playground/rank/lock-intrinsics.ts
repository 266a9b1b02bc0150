/**
 * Freezes the built-ins the collectives call on shared views (Atomics, typed arrays, array iteration,
 * promises, WebAssembly) and pins their global names, just before the reader's program runs: a program that
 * wraps one of them could otherwise capture the shared memory when the runtime next calls it. Object.prototype
 * and Error.prototype stay open: freezing them makes ordinary assignments like `err.name = …` throw.
 */
const GLOBAL_NAMES = [
  'Atomics',
  'Reflect',
  'JSON',
  'Math',
  'Array',
  'Map',
  'Set',
  'WeakMap',
  'WeakSet',
  'Promise',
  'ArrayBuffer',
  'SharedArrayBuffer',
  'DataView',
  'WebAssembly',
  'Int8Array',
  'Uint8Array',
  'Uint8ClampedArray',
  'Int16Array',
  'Uint16Array',
  'Int32Array',
  'Uint32Array',
  'Float32Array',
  'Float64Array',
  'BigInt64Array',
  'BigUint64Array',
  'TextEncoder',
  'TextDecoder',
  'structuredClone',
] as const;

function freezeWithPrototype(value: unknown): void {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return;
  Object.freeze(value);
  const proto = (value as { prototype?: unknown }).prototype;
  if (typeof proto === 'object' && proto !== null) Object.freeze(proto);
}

let locked = false;

/** Idempotent; call once in a rank worker after the runtime is loaded and before reader code runs. */
export function lockIntrinsics(): void {
  if (locked) return;
  locked = true;
  const g = globalThis as Record<string, unknown>;
  for (const name of GLOBAL_NAMES) {
    freezeWithPrototype(g[name]);
    const d = Object.getOwnPropertyDescriptor(globalThis, name);
    if (d?.configurable)
      Object.defineProperty(globalThis, name, {
        value: g[name],
        writable: false,
        configurable: false,
        enumerable: d.enumerable ?? false,
      });
  }
  freezeWithPrototype(Object.getPrototypeOf(Int32Array)); // %TypedArray%
  const wasm = g.WebAssembly as Record<string, unknown> | undefined;
  if (wasm) for (const k of Object.getOwnPropertyNames(wasm)) freezeWithPrototype(wasm[k]);
  // Iteration protocols the runtime's loops use (for…of over arrays, maps and generators).
  const arrayIterator = Object.getPrototypeOf([][Symbol.iterator]());
  const generator = Object.getPrototypeOf(function* () {}).prototype;
  for (const p of [
    arrayIterator,
    Object.getPrototypeOf(arrayIterator),
    Object.getPrototypeOf(new Map().entries()),
    generator,
    Object.getPrototypeOf(function* () {}),
  ])
    Object.freeze(p);
  Object.freeze(Function.prototype);
}
