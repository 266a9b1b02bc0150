import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  parseSize,
  parseSweep,
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
  it('prints nccl-tests’ header and one line in its columns, plus algorithm, protocol and channels', () => {
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
    expect(r.out).toHaveLength(5);
    expect(r.out[0]).toMatch(
      /^# ranks predict: all-reduce on a100-hdr, 2 nodes × 8 GPUs \(simulated/,
    );
    expect(r.out[2]).toMatch(
      /#\s+size\s+count\s+type\s+redop\s+root\s+time\s+algbw\s+busbw\s+algo\s+proto\s+channels/,
    );
    const fields = r.out[4]!.trim().split(/\s+/);
    const [size, count, , , , time, algbw, busbw] = fields.map(Number);
    const p = predictCollective(clusterShape('a100-hdr', 2, 8), 'all-reduce', 2 ** 30);
    expect(fields.slice(2, 5)).toEqual(['float', 'sum', '-1']);
    expect(fields.slice(8)).toEqual([p.algorithm, p.protocol, String(p.channels)]);
    expect(size).toBe(2 ** 30);
    expect(count).toBe(2 ** 28);
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
    const ringFields = ring.out.at(-1)!.trim().split(/\s+/);
    expect(Number(ringFields[7])).toBeLessThan(371);
    expect(ringFields.slice(8, 10)).toEqual(['ring', 'Simple']);
  });

  it('sweeps as nccl-tests -b A -e B -f 2 does: 8:8G is 31 sizes, channels growing with the size', () => {
    expect(parseSweep('8:8G')).toHaveLength(31);
    expect(parseSweep('1M:4M')).toEqual([2 ** 20, 2 ** 21, 2 ** 22]);
    const r = capture(predictCommand, [
      'all-reduce',
      '--cluster',
      'h100-ndr-no-nvls',
      '--sweep',
      '8:8G',
    ]);
    expect(r.code).toBe(0);
    const rows = r.out.filter((l) => !l.startsWith('#')).map((l) => l.trim().split(/\s+/));
    expect(rows).toHaveLength(31);
    expect(rows.map((f) => Number(f[0]))).toEqual(parseSweep('8:8G'));
    const channels = rows.map((f) => Number(f[10]));
    expect(channels[0]).toBe(1);
    expect(channels.at(-1)).toBe(32);
    const times = rows.map((f) => Number(f[5]));
    for (let i = 1; i < times.length; i++) expect(times[i]).toBeGreaterThanOrEqual(times[i - 1]!);
  });

  it('overrides NICs per node and NIC speed from the command line', () => {
    const args = [
      'all-reduce',
      '--cluster',
      'h100-ndr',
      '--nodes',
      '2',
      '--bytes',
      '8G',
      '--algo',
      'ring',
    ];
    const base = capture(predictCommand, args);
    const two = capture(predictCommand, [...args, '--nics-per-node', '2', '--nic-gbps', '200']);
    expect(two.out[0]).toContain('h100-ndr (2 NICs, 200 Gb/s)');
    const busbw = (r: typeof base) => Number(r.out.at(-1)!.trim().split(/\s+/)[7]);
    expect(busbw(two)).toBeLessThanOrEqual(50);
    expect(busbw(base)).toBeGreaterThan(300);
  });

  it('--help lists --algo, --proto, --sweep and the NIC flags', () => {
    const r = capture(predictCommand, ['--help']);
    expect(r.code).toBe(0);
    for (const flag of ['--algo', '--proto', '--sweep', '--nics-per-node', '--nic-gbps'])
      expect(r.out.join('\n')).toContain(flag);
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
    [['all-reduce', '--cluster', 'h100-ndr', '--sweep', '8G:8'], /1 ≤ A ≤ B/],
    [['all-reduce', '--cluster', 'h100-ndr', '--bytes', '8', '--sweep', '8:16'], /not both/],
    [
      ['all-reduce', '--cluster', 'h100-ndr', '--bytes', '8', '--nic-gbps', 'fast'],
      /--nic-gbps must be/,
    ],
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
    const last = ok.stdout.trim().split('\n').at(-1)!;
    expect(last.trim().split(/\s+/)).toHaveLength(11);
    const help = spawnSync(process.execPath, [cli, '--help'], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(help.stdout).toContain('--algo');
    expect(help.stdout).toContain('--proto');
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
