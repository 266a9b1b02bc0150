// Plain-JS references the collectives are checked against.
import type { ReduceOp } from '../../../../playground/collectives/dist-api.ts';

export type Arr = Float32Array | Int32Array;
const f32 = Math.fround;

/** Element-wise reduction in rank order, rounded as float32 (or int32) at every step like the kernel. */
export function reduceRef(inputs: Arr[], op: ReduceOp): Arr {
  const isInt = inputs[0] instanceof Int32Array;
  const out = inputs[0]!.slice() as Arr;
  const n = inputs.length;
  for (let i = 0; i < out.length; i++) {
    let acc = inputs[0]![i]!;
    for (let r = 1; r < n; r++) {
      const v = inputs[r]![i]!;
      if (op === 'sum' || op === 'avg') acc = isInt ? (acc + v) | 0 : f32(acc + v);
      else if (op === 'prod') acc = isInt ? Math.imul(acc, v) : f32(acc * v);
      else if (op === 'max') acc = Math.max(acc, v);
      else acc = Math.min(acc, v);
    }
    if (op === 'avg') acc = isInt ? Math.trunc(acc / n) : f32(acc / n);
    out[i] = acc;
  }
  return out;
}

/** torch.tensor_split boundaries. */
export function splitRef(length: number, n: number, c: number): [number, number] {
  const base = Math.floor(length / n);
  const extra = length % n;
  const start = c * base + Math.min(c, extra);
  return [start, start + base + (c < extra ? 1 : 0)];
}

export function concatRef(parts: Arr[]): Arr {
  const total = parts.reduce((a, p) => a + p.length, 0);
  const out = parts[0] instanceof Int32Array ? new Int32Array(total) : new Float32Array(total);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Deterministic inputs whose reductions are exact in any order: small integers, and ±powers of two for prod. */
export function inputFor(
  rank: number,
  length: number,
  dtype: 'float32' | 'int32',
  op: ReduceOp | 'none',
  salt = 0,
): Arr {
  const out = dtype === 'int32' ? new Int32Array(length) : new Float32Array(length);
  let s = (rank + 1) * 2654435761 + salt * 97 + length;
  for (let i = 0; i < length; i++) {
    s = (Math.imul(s, 1103515245) + 12345) | 0;
    const r = (s >>> 16) & 0x7fff;
    out[i] =
      op === 'prod'
        ? dtype === 'int32'
          ? (r % 5) - 2
          : [0.5, 1, 2, -1, -0.5, 4][r % 6]!
        : (r % 201) - 100;
  }
  return out;
}
