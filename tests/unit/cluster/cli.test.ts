import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const cli = join(process.cwd(), 'playground', 'cli', 'ranks.ts');
const dir = mkdtempSync(join(tmpdir(), 'ranks-cli-'));
const run = (...args: string[]) => spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', cwd: tmpdir(), timeout: 60_000 });

describe('npm run ranks -- run', () => {
  it('runs a program from anywhere on disk and prints [rank k] lines; [10, 12] on every rank', () => {
    const file = join(dir, 'allreduce.ts');
    writeFileSync(file, `import * as tf from '@tensorflow/tfjs';
import { dist } from 'ranks';
const s = await dist.allReduce(tf.tensor([dist.rank + 1, 2 * dist.rank]));
console.log(Array.from(await s.data()));`);
    const out = run('run', file, '--world', '4');
    expect(out.status).toBe(0);
    expect(out.stdout.trim().split('\n').sort()).toEqual([0, 1, 2, 3].map((r) => `[rank ${r}] [10, 12]`));
  });

  it('exits non-zero when a rank fails, and on usage errors', () => {
    const file = join(dir, 'fail.ts');
    writeFileSync(file, "import { dist } from 'ranks';\nif (dist.rank === 1) throw new Error('nope');");
    const out = run('run', file, '--world', '2');
    expect(out.status).toBe(1);
    expect(out.stderr).toContain('[rank 1] error at line 2: nope');
    expect(run('walk', file).status).toBe(2);
    expect(run('run', join(dir, 'missing.ts')).stderr).toContain('cannot read');
  });
});
