import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { hasTorch, PYTHON } from '../../reference/python.ts';
import { loadReference, maxParamDiff } from './reference-json.ts';

const REGENERATE = fileURLToPath(new URL('../../reference/regenerate.py', import.meta.url));

if (!hasTorch)
  console.warn(
    `pytorchTwin: skipped, "${PYTHON} -c 'import torch'" failed (apt-get install python3-torch to run the twin)`,
  );

describe.skipIf(!hasTorch)('PyTorch twin (torchrun, gloo, DDP and ZeroRedundancyOptimizer)', () => {
  it('re-running the twin reproduces the committed JSON', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ranks-twin-'));
    try {
      const out = join(dir, 'mlp-reference.json');
      const run = spawnSync(PYTHON, [REGENERATE, out], { encoding: 'utf8', timeout: 180_000 });
      expect(run.status, run.stderr).toBe(0);
      const fresh = loadReference(out);
      const committed = loadReference();
      expect(Object.keys(fresh.runs).sort()).toEqual(Object.keys(committed.runs).sort());
      expect(fresh.x).toEqual(committed.x);
      expect(fresh.initial).toEqual(committed.initial);
      for (const [name, steps] of Object.entries(committed.runs)) {
        steps.forEach((step, i) =>
          expect(
            maxParamDiff(fresh.runs[name]![i]!.params, step.params),
            `${name} step ${i + 1}`,
          ).toBeLessThan(1e-6),
        );
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 240_000);
});

describe('committed PyTorch reference', () => {
  it('torch itself agrees: every DDP and ZeRO run lands on single-device weights to 1e-6', () => {
    const ref = loadReference();
    for (const [name, steps] of Object.entries(ref.runs)) {
      if (name.startsWith('single')) continue;
      const single = ref.runs[`single/${name.split('/')[1]}`]!;
      steps.forEach((step, i) =>
        expect(maxParamDiff(step.params, single[i]!.params), name).toBeLessThan(1e-6),
      );
    }
  });
});
