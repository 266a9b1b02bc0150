import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  parseSize,
  predictCommand,
  presetsCommand,
} from '../../../playground/cli/predict-command.ts';
import { clusterShape } from '../../../playground/simulation/cluster-shape.ts';
import { predictCollective } from '../../../playground/simulation/collective-model.ts';
import { CLUSTER_PRESETS } from '../../../playground/simulation/presets.ts';

function capture(command: typeof predictCommand, args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = command(args, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out, err: err.join('\n') };
}

describe('ranks presets', () => {
  it('prints one `id: description` a line, every preset', () => {
    const r = capture(presetsCommand, []);
    expect(r.code).toBe(0);
    expect(r.out).toEqual(CLUSTER_PRESETS.map((p) => `${p.id}: ${p.description}`));
    expect(capture(presetsCommand, ['--all']).code).toBe(2);
  });
});

describe('ranks predict', () => {
  it('prints one line in nccl-tests’ columns: size (B), time (us), algbw and busbw (GB/s)', () => {
    const r = capture(predictCommand, [
      'all-reduce',
      '--cluster',
      'a100-hdr',
      '--nodes',
      '2',
      '--gpus-per-node',
      '8',
      '--bytes',
      '1G',
    ]);
    expect(r.code).toBe(0);
    expect(r.out).toHaveLength(1);
    const [size, time, algbw, busbw] = r.out[0]!.trim().split(/\s+/).map(Number);
    const p = predictCollective(clusterShape('a100-hdr', 2, 8), 'all-reduce', 2 ** 30);
    expect(size).toBe(2 ** 30);
    expect(time).toBeCloseTo(p.seconds * 1e6, 2);
    expect(algbw).toBeCloseTo(p.algbw, 2);
    expect(busbw).toBeCloseTo(p.busbw, 2);
    expect(busbw! / algbw!).toBeCloseTo(30 / 16, 2);
  });

  it('takes every collective, the preset’s default shape, and NCCL_ALGO/NCCL_PROTO-like overrides', () => {
    for (const op of ['all-reduce', 'all-gather', 'reduce-scatter', 'broadcast']) {
      expect(capture(predictCommand, [op, '--cluster', 'h100-ndr', '--bytes', '65536']).code).toBe(
        0,
      );
    }
    const ring = capture(predictCommand, [
      'all-reduce',
      '--cluster',
      'h100-ndr',
      '--bytes',
      '8G',
      '--algo',
      'ring',
      '--proto',
      'Simple',
    ]);
    expect(Number(ring.out[0]!.trim().split(/\s+/)[3])).toBeLessThan(371);
  });

  it('parses sizes as nccl-tests does (K, M, G are powers of 1024)', () => {
    expect(parseSize('8')).toBe(8);
    expect(parseSize('128M')).toBe(128 * 2 ** 20);
    expect(parseSize('2g')).toBe(2 * 2 ** 30);
    expect(() => parseSize('1.5G')).toThrow(/whole number/);
  });

  it.each([
    [[], /needs a collective/],
    [['all-to-all', '--cluster', 'h100-ndr', '--bytes', '8'], /unknown collective "all-to-all"/],
    [['all-reduce', '--bytes', '8'], /--cluster is required/],
    [['all-reduce', '--cluster', 'tpu-v5', '--bytes', '8'], /unknown cluster preset "tpu-v5"/],
    [['all-reduce', '--cluster', 'h100-ndr'], /--bytes is required/],
    [['all-reduce', '--cluster', 'h100-ndr', '--bytes', '-8'], /whole number of bytes/],
    [['all-reduce', '--cluster', 'h100-ndr', '--bytes', '--nodes', '2'], /--bytes needs a value/],
    [
      ['all-reduce', '--cluster', 'h100-ndr', '--bytes', '8', '--nodes', '0'],
      /--nodes must be a whole number ≥ 1/,
    ],
    [
      ['all-reduce', '--cluster', 'h100-ndr', '--bytes', '8', '--gpus-per-node', '9'],
      /from 1 to 8 on h100-ndr/,
    ],
    [
      ['all-reduce', '--cluster', 'h100-ndr', '--bytes', '8', '--world', '4'],
      /unknown option --world/,
    ],
    [
      ['all-reduce', '--cluster', 'h100-ndr', '--bytes', '8', '--algo', 'ring', '--algo', 'tree'],
      /given twice/,
    ],
    [
      ['all-reduce', '--cluster', 'h100-ndr', '--bytes', '8', '--proto', 'LL64'],
      /--proto must be one of/,
    ],
    [
      ['all-gather', '--cluster', 'a100-hdr', '--bytes', '8', '--algo', 'tree'],
      /no tree all-gather/,
    ],
  ])('rejects %j with a message and exit code 2', (args, message) => {
    const r = capture(predictCommand, args as string[]);
    expect(r.code).toBe(2);
    expect(r.out).toEqual([]);
    expect(r.err).toMatch(message);
  });

  it('runs from the real CLI entry point (npm run ranks --)', () => {
    const cli = join(process.cwd(), 'playground', 'cli', 'ranks.ts');
    const ok = spawnSync(
      process.execPath,
      [cli, 'predict', 'broadcast', '--cluster', 'a100-100gbe', '--bytes', '1M'],
      { encoding: 'utf8', timeout: 60_000 },
    );
    expect(ok.status).toBe(0);
    expect(ok.stdout.trim().split(/\s+/)).toHaveLength(4);
    const bad = spawnSync(
      process.execPath,
      [cli, 'predict', 'all-reduce', '--cluster', 'h100-ndr'],
      { encoding: 'utf8', timeout: 60_000 },
    );
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('usage: npm run ranks -- predict');
    const presets = spawnSync(process.execPath, [cli, 'presets'], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(presets.stdout.trim().split('\n')).toHaveLength(CLUSTER_PRESETS.length);
  });
});
