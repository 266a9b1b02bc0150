import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** One step of a PyTorch run: loss before the update and every parameter after it, flat. */
export interface ReferenceStep {
  loss: number;
  params: Record<string, number[]>;
}

export interface ReferenceJson {
  sizes: number[];
  rows: number;
  steps: number;
  lr: { sgd: number; adam: number };
  x: number[];
  y: number[];
  initial: Record<string, number[]>;
  shards: Record<string, number[][]>;
  runs: Record<string, ReferenceStep[]>;
  /** BatchNorm running statistics after the last step of each 'single-bn/…' run. */
  buffers: Record<string, Record<string, number[]>>;
}

export const REFERENCE_PATH = fileURLToPath(
  new URL('../../reference/mlp-reference.json', import.meta.url),
);

export function loadReference(path = REFERENCE_PATH): ReferenceJson {
  return JSON.parse(readFileSync(path, 'utf8')) as ReferenceJson;
}

/** Largest absolute difference between two named parameter sets. */
export function maxParamDiff(
  a: Record<string, ArrayLike<number>>,
  b: Record<string, ArrayLike<number>>,
): number {
  let worst = 0;
  for (const name of Object.keys(b)) {
    const x = a[name];
    const y = b[name]!;
    if (!x || x.length !== y.length) throw new Error(`parameter ${name} missing or mis-sized`);
    for (let i = 0; i < y.length; i++) worst = Math.max(worst, Math.abs(x[i]! - y[i]!));
  }
  return worst;
}
