import type * as tfNamespace from '@tensorflow/tfjs';

const MAX_ELEMENTS = 64;

const fmtNumber = (v: number): string =>
  Number.isInteger(v) ? String(v) : String(Number(v.toPrecision(6)));

/** A tensor as a reader wants to see it: values (read with `await t.data()`, never dataSync), shape and dtype. */
async function formatTensor(t: tfNamespace.Tensor): Promise<string> {
  if (t.isDisposed) return `Tensor(disposed)`;
  const values = Array.from((await t.data()) as ArrayLike<number>);
  const shown = values.slice(0, MAX_ELEMENTS).map(fmtNumber);
  const more = values.length > MAX_ELEMENTS ? `, … ${values.length - MAX_ELEMENTS} more` : '';
  return `Tensor [${shown.join(', ')}${more}] shape=[${t.shape.join(',')}] ${t.dtype}`;
}

function formatPlain(v: unknown, seen: Set<unknown>, depth: number): string {
  if (typeof v === 'string') return depth === 0 ? v : JSON.stringify(v);
  if (typeof v === 'number') return fmtNumber(v);
  if (typeof v === 'bigint') return `${v}n`;
  if (v === null || v === undefined || typeof v === 'boolean') return String(v);
  if (typeof v === 'function') return `[Function ${v.name || 'anonymous'}]`;
  if (typeof v === 'symbol') return v.toString();
  if (v instanceof Error) return v.stack ?? `${v.name}: ${v.message}`;
  if (seen.has(v) || depth > 4) return '[…]';
  seen.add(v);
  if (ArrayBuffer.isView(v) && !(v instanceof DataView)) {
    const arr = Array.from(v as unknown as ArrayLike<number>);
    return `${v.constructor.name}(${arr.length}) [${arr.slice(0, MAX_ELEMENTS).map(fmtNumber).join(', ')}${arr.length > MAX_ELEMENTS ? ', …' : ''}]`;
  }
  if (Array.isArray(v)) return `[${v.map((x) => formatPlain(x, seen, depth + 1)).join(', ')}]`;
  if (v instanceof Map)
    return `Map(${v.size}) {${[...v].map(([k, x]) => `${formatPlain(k, seen, depth + 1)} => ${formatPlain(x, seen, depth + 1)}`).join(', ')}}`;
  const entries = Object.entries(v as object).map(
    ([k, x]) => `${k}: ${formatPlain(x, seen, depth + 1)}`,
  );
  return `{ ${entries.join(', ')} }`;
}

/** Formats arguments that hold no tensor right away (so a line printed just before an endless loop still shows); undefined otherwise. */
export function formatLogArgsNow(args: unknown[], tf: typeof tfNamespace): string | undefined {
  if (args.some((a) => a instanceof tf.Tensor)) return undefined;
  return args.map((a) => formatPlain(a, new Set(), 0)).join(' ');
}

/**
 * Pins the values of the tensors among console arguments at call time: each becomes a kept clone
 * (shared data, no copy), so disposing the original or leaving a `tf.tidy` cannot change what prints.
 */
export function captureLogArgs(args: unknown[], tf: typeof tfNamespace): unknown[] {
  return args.map((a) => (a instanceof tf.Tensor && !a.isDisposed ? tf.keep(a.clone()) : a));
}

/** Formats console arguments (as returned by captureLogArgs) the way a terminal would, with tensors shown by value; frees the clones. */
export async function formatLogArgs(args: unknown[], tf: typeof tfNamespace): Promise<string> {
  const parts = await Promise.all(
    args.map(async (a) => {
      if (!(a instanceof tf.Tensor)) return formatPlain(a, new Set(), 0);
      try {
        return await formatTensor(a);
      } finally {
        a.dispose();
      }
    }),
  );
  return parts.join(' ');
}
