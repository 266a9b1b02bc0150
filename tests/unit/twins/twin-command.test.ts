import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = process.cwd();
const cli = join(root, 'playground', 'cli', 'ranks.ts');
const run = (...args: string[]) =>
  spawnSync(process.execPath, [cli, 'twin', ...args], {
    encoding: 'utf8',
    cwd: tmpdir(),
    timeout: 30_000,
  });

describe('npm run ranks -- twin', () => {
  it('prints the twin of a playground given by path or by name, and the launch hint on stderr', () => {
    const twin = readFileSync(join(root, 'content', 'twins', '04-manual-ddp.py'), 'utf8');
    const byPath = run(join(root, 'content', 'chapters', 'playgrounds', '04-manual-ddp.ts'));
    expect(byPath.status).toBe(0);
    expect(byPath.stdout).toBe(twin);
    expect(byPath.stderr).toContain('torchrun --nproc_per_node=4 04-manual-ddp.py');
    expect(run('04-manual-ddp').stdout).toBe(twin);
  });

  it('prints the shared helper with --helper', () => {
    const out = run('--helper');
    expect(out.status).toBe(0);
    expect(out.stdout).toBe(readFileSync(join(root, 'content', 'twins', 'ranks_twin.py'), 'utf8'));
  });

  it('exits 2 naming the playgrounds that have twins when there is none, and on usage errors', () => {
    const out = run('my-own-program.ts');
    expect(out.status).toBe(2);
    expect(out.stderr).toContain('no PyTorch twin for my-own-program.ts');
    expect(out.stderr).toContain('05-zero-ledger.ts');
    expect(run().status).toBe(2);
  });
});
