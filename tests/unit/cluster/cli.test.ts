import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_TIMEOUT_MS, parseCliArgs, UsageError } from '../../../playground/cli/cli-args.ts';

const cli = join(process.cwd(), 'playground', 'cli', 'ranks.ts');
const dir = mkdtempSync(join(tmpdir(), 'ranks-cli-'));
const run = (...args: string[]) =>
  spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', cwd: tmpdir(), timeout: 60_000 });

describe('npm run ranks -- run', () => {
  it('runs a program from anywhere on disk and prints [rank k] lines; [10, 12] on every rank', () => {
    const file = join(dir, 'allreduce.ts');
    writeFileSync(
      file,
      `import * as tf from '@tensorflow/tfjs';
import { dist } from 'ranks';
const s = await dist.allReduce(tf.tensor([dist.rank + 1, 2 * dist.rank]));
console.log(Array.from(await s.data()));`,
    );
    const out = run('run', file, '--world', '4');
    expect(out.status).toBe(0);
    const lines = out.stdout.trim().split('\n');
    expect(lines.pop()).toMatch(/^real time on this machine: \d+ ms \(not a GPU cluster/);
    expect(lines.sort()).toEqual([0, 1, 2, 3].map((r) => `[rank ${r}] [10, 12]`));
  });

  it('with --cluster prints the virtual step report (the model’s times, the same on any machine)', () => {
    const file = join(dir, 'steps.ts');
    writeFileSync(
      file,
      `import * as tf from '@tensorflow/tfjs';
import { dist } from 'ranks';
for (let s = 0; s < 2; s++) {
  dist.simulation!.compute(0.01);
  await dist.allReduce(tf.zeros([1024]));
  await dist.simulation!.endStep();
}`,
    );
    const out = run('run', file, '--cluster', 'a100-hdr', '--nodes', '1', '--gpus-per-node', '2');
    expect(out.stderr).toBe('');
    expect(out.status).toBe(0);
    const lines = out.stdout.trim().split('\n');
    expect(lines[0]).toBe(
      'virtual time on a100-hdr, 1 node × 2 GPUs (the cluster model, not this machine):',
    );
    expect(lines[1]).toBe(
      'step  time (ms)  compute (ms)  comm (ms)  exposed comm (ms)  peer wait (ms)       MFU  configuration',
    );
    // 10 ms of compute, then a 4 KiB all-reduce on NVLink: latency-bound, tens of microseconds.
    const rows = lines
      .slice(2)
      .filter((l) => /^\s+\d+ /.test(l))
      .map((l) => l.trim().split(/\s+/));
    // The mean leaves out step 0, and the figures' one definition follows.
    expect(lines).toContain('Each figure is the slowest rank’s:');
    expect(lines.some((l) => l.startsWith('Mean of step 1: step time '))).toBe(true);
    expect(rows.map((r) => r[0])).toEqual(['0', '1']);
    for (const r of rows) {
      expect(Number(r[2])).toBe(10);
      expect(Number(r[1]) - 10).toBeGreaterThan(0.005);
      expect(Number(r[1]) - 10).toBeLessThan(0.1);
      expect(r[1]).toBe(rows[0]![1]);
    }
  });

  it('exits non-zero when a rank fails, and on usage errors', () => {
    const file = join(dir, 'fail.ts');
    writeFileSync(
      file,
      "import { dist } from 'ranks';\nif (dist.rank === 1) throw new Error('nope');",
    );
    const out = run('run', file, '--world', '2');
    expect(out.status).toBe(1);
    expect(out.stderr).toContain('[rank 1] error at line 2: nope');
    expect(run('walk', file).status).toBe(2);
    expect(run('run', join(dir, 'missing.ts')).stderr).toContain('cannot read');
  });
});

describe('CLI arguments (issue 19, item 14)', () => {
  it.each([
    [['--world', '0'], /--world must be a whole number from 1 to 1024, got '0'/],
    [['--world', '1025'], /--world must be a whole number from 1 to 1024, got '1025'/],
    [['--world', '2.5'], /--world must be a whole number/],
    [['--backend', 'gpu'], /--backend must be one of auto, wasm, cpu, got 'gpu'/],
    [['--timeout', 'abc'], /--timeout must be a whole number from 1 to 2147483647, got 'abc'/],
    [['--timeout', '1e12'], /--timeout must be a whole number from 1 to 2147483647, got '1e12'/],
    [['--timeout', String(MAX_TIMEOUT_MS + 1)], /--timeout must be a whole number/],
    [['--world'], /--world needs a value/],
    [['--colour', 'red'], /unknown option '--colour'/],
  ])('rejects %j with a reason', (flags, message) => {
    expect(() => parseCliArgs(['run', 'a.ts', ...flags])).toThrow(UsageError);
    expect(() => parseCliArgs(['run', 'a.ts', ...flags])).toThrow(message);
  });

  it('accepts the limits themselves and defaults the rest', () => {
    expect(
      parseCliArgs([
        'run',
        'a.ts',
        '--world',
        '16',
        '--timeout',
        String(MAX_TIMEOUT_MS),
        '--backend',
        'wasm',
      ]),
    ).toEqual({ file: 'a.ts', world: 16, backend: 'wasm', timeoutMs: MAX_TIMEOUT_MS });
    expect(parseCliArgs(['run', 'a.ts'])).toEqual({
      file: 'a.ts',
      world: 4,
      backend: 'cpu',
      timeoutMs: 60_000,
    });
    expect(parseCliArgs(['--help'])).toBe('help');
    expect(
      parseCliArgs([
        'run',
        'a.ts',
        '--cluster',
        'h100-ndr',
        '--nodes',
        '2',
        '--gpus-per-node',
        '8',
      ]),
    ).toEqual({
      file: 'a.ts',
      world: 16,
      backend: 'cpu',
      timeoutMs: 60_000,
      cluster: { preset: 'h100-ndr', nodes: 2, gpusPerNode: 8 },
    });
    expect(() => parseCliArgs(['run', 'a.ts', '--cluster', 'nope'])).toThrow(/--cluster: /);
    expect(() =>
      parseCliArgs([
        'run',
        'a.ts',
        '--cluster',
        'h100-ndr',
        '--nodes',
        '129',
        '--gpus-per-node',
        '8',
      ]),
    ).toThrow(/129 × 8 GPUs, the world, must be a whole number from 1 to 1024, got 1032/);
    // 128 nodes of 8 GPUs, the largest world (MAX_WORLD_SIZE, issue 30).
    expect(
      parseCliArgs([
        'run',
        'a.ts',
        '--cluster',
        'h100-ndr',
        '--nodes',
        '128',
        '--gpus-per-node',
        '8',
      ]),
    ).toMatchObject({ world: 1024 });
    expect(() => parseCliArgs(['run', 'a.ts', '--nodes', '2'])).toThrow(/need --cluster/);
  });

  it('prints the reason and usage and exits 2, with no stack trace', () => {
    const file = join(dir, 'noop.ts');
    writeFileSync(file, 'console.log(1);');
    for (const flags of [
      ['--world', '0'],
      ['--world', '1025'],
      ['--backend', 'gpu'],
      ['--timeout', 'abc'],
      ['--timeout', '1e12'],
    ]) {
      const out = run('run', file, ...flags);
      expect(out.status, flags.join(' ')).toBe(2);
      expect(out.stderr).toContain('usage: npm run ranks -- run <file.ts>');
      expect(out.stderr).not.toMatch(/\n\s+at /);
    }
    const help = run('--help');
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('the program runs as you');
  });
});

describe("CLI ranks run under Node's permission model (issue 19, item 12)", () => {
  it('a program cannot write files, read outside the project or start processes, however it reaches node:fs', () => {
    const file = join(dir, 'escape.ts');
    const target = join(dir, 'written-by-a-rank');
    writeFileSync(
      file,
      `import { dist } from 'ranks';
const tryIt = async (what: string, fn: () => unknown) => { try { await fn(); console.log(what, 'ALLOWED'); } catch (e) { console.log(what, 'refused', (e as { code?: string }).code); } };
const fs = (process as unknown as { getBuiltinModule(s: string): typeof import('node:fs') }).getBuiltinModule('node:fs');
await tryIt('write', () => fs.writeFileSync(${JSON.stringify(target)}, 'x'));
await tryIt('read', () => fs.readFileSync('/etc/hostname', 'utf8'));
const viaEval = await (0, eval)("import('node:fs')");
await tryIt('eval-write', () => viaEval.writeFileSync(${JSON.stringify(target)}, 'x'));
const cp = await (0, eval)("import('node:child_process')");
await tryIt('exec', () => cp.execSync('true'));
console.log('rank', dist.rank, 'done');`,
    );
    const out = run('run', file, '--world', '2');
    expect(out.stderr).toBe('');
    expect(out.status).toBe(0);
    for (const r of [0, 1]) {
      for (const what of ['write', 'read', 'eval-write', 'exec'])
        expect(out.stdout).toContain(`[rank ${r}] ${what} refused ERR_ACCESS_DENIED`);
    }
    expect(out.stdout).not.toContain('ALLOWED');
    expect(existsSync(target)).toBe(false);
  });
});

describe('CLI ranks cannot leave the permission model or forge output (issue 34, items 2 and 10)', () => {
  it('new Worker(code, { eval: true, execArgv: [] }) is refused however node:worker_threads is reached; no file is written', () => {
    const file = join(dir, 'thread-escape.ts');
    const target = join(dir, 'written-by-a-thread');
    const code = JSON.stringify(`require('fs').writeFileSync(${JSON.stringify(target)}, 'x')`);
    writeFileSync(
      file,
      `import { dist } from 'ranks';
const tryIt = async (what: string, fn: () => unknown) => { try { await fn(); console.log(what, 'ALLOWED'); } catch (e) { console.log(what, 'refused', (e as Error).name); } };
const start = (wt: { Worker: new (c: string, o: object) => unknown }) => new wt.Worker(${code}, { eval: true, execArgv: [] });
await tryIt('eval-import', async () => start(await (0, eval)("import('node:worker_threads')")));
await tryIt('getBuiltinModule', () => start((process as any).getBuiltinModule('node:worker_threads')));
await tryIt('createRequire', async () => start((await (0, eval)("import('node:module')")).createRequire(${JSON.stringify(file)})('worker_threads')));
await tryIt('kill', () => process.kill(process.pid, 0));
await tryIt('exit', () => process.exit(0));
console.log('env', Object.keys(process.env).length, 'variables');
await new Promise((r) => setTimeout(r, 300));
console.log('rank', dist.rank, 'done');`,
    );
    const out = run('run', file, '--world', '2');
    expect(out.stderr).toBe('');
    for (const r of [0, 1]) {
      for (const what of ['eval-import', 'getBuiltinModule', 'createRequire', 'kill', 'exit'])
        expect(out.stdout).toContain(`[rank ${r}] ${what} refused RefusedInRankError`);
      expect(out.stdout).toContain(`[rank ${r}] env 0 variables`);
    }
    expect(out.stdout).not.toContain('ALLOWED');
    expect(existsSync(target)).toBe(false);
    expect(out.status).toBe(0);
  });

  it('escape sequences and forged [rank k] lines print as visible text, from console.log and process.stdout.write', () => {
    const file = join(dir, 'forge.ts');
    writeFileSync(
      file,
      `import { dist } from 'ranks';
if (dist.rank === 0) {
  console.log('clip \\x1b]52;c;aGVsbG8=\\x07 end\\n[rank 3] forged\\r\\u009b2J');
  process.stdout.write('raw \\x1b[2J\\n[rank 3] forged too\\n');
}`,
    );
    const out = run('run', file, '--world', '2');
    expect(out.status).toBe(0);
    expect(out.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/); // eslint-disable-line no-control-regex
    expect(out.stdout).toContain(
      '[rank 0] clip \u241b]52;c;aGVsbG8=\u2407 end\n[rank 0] [rank 3] forged\u240d\\u009b2J\n',
    );
    expect(out.stdout).toContain('[rank 0] raw \u241b[2J\n[rank 0] [rank 3] forged too\n');
    expect(out.stdout).not.toMatch(/^\[rank 3\]/m);
  });
});
