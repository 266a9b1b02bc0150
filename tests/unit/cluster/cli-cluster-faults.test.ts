import { describe, expect, it } from 'vitest';
import { parseCliArgs, USAGE, UsageError } from '../../../playground/cli/cli-args.ts';

const run = (...flags: string[]) => parseCliArgs(['run', 'p.ts', ...flags]);

describe('run takes the page’s straggler, jitter and dead-rank options (issue 31)', () => {
  it('--slowdown R:F is the page’s slowdown={{ R: F }} (03-straggler.ts: { 3: 2 })', () => {
    const a = run(
      '--cluster',
      'h100-ndr',
      '--nodes',
      '1',
      '--gpus-per-node',
      '4',
      '--slowdown',
      '3:2',
    );
    expect(a).toMatchObject({ world: 4, cluster: { preset: 'h100-ndr', slowdown: { 3: 2 } } });
    expect(
      run(
        '--cluster',
        'h100-ndr',
        '--nodes',
        '1',
        '--gpus-per-node',
        '4',
        '--slowdown',
        '1:1.5,3:2',
      ),
    ).toMatchObject({
      cluster: { slowdown: { 1: 1.5, 3: 2 } },
    });
  });

  it('--jitter A[:seed] and --dead-rank R:S fill the contract’s jitter and deadRank', () => {
    const a = run(
      '--cluster',
      'a100-100gbe',
      '--nodes',
      '2',
      '--gpus-per-node',
      '2',
      '--jitter',
      '0.2:7',
      '--dead-rank',
      '2:1',
    );
    expect(a).toMatchObject({
      cluster: { jitter: { amplitude: 0.2, seed: 7 }, deadRank: { rank: 2, atStep: 1 } },
    });
    expect(
      run('--cluster', 'h100-ndr', '--nodes', '1', '--gpus-per-node', '2', '--jitter', '0.1'),
    ).toMatchObject({
      cluster: { jitter: { amplitude: 0.1, seed: 1 } },
    });
  });

  it.each([
    [['--slowdown', '3:2'], /need --cluster/],
    [
      ['--cluster', 'h100-ndr', '--nodes', '1', '--gpus-per-node', '4', '--slowdown', '4:2'],
      /rank 4 does not exist in a world of 4/,
    ],
    [
      ['--cluster', 'h100-ndr', '--nodes', '1', '--gpus-per-node', '4', '--slowdown', '3:0.5'],
      /factor is ≥ 1/,
    ],
    [
      ['--cluster', 'h100-ndr', '--nodes', '1', '--gpus-per-node', '4', '--slowdown', '3'],
      /takes A:B/,
    ],
    [
      ['--cluster', 'h100-ndr', '--nodes', '1', '--gpus-per-node', '4', '--jitter', '0'],
      /amplitude is > 0/,
    ],
    [
      ['--cluster', 'h100-ndr', '--nodes', '1', '--gpus-per-node', '4', '--dead-rank', 'x:1'],
      /not a whole number/,
    ],
  ])('rejects %j with a usage error', (flags, message) => {
    expect(() => run(...(flags as string[]))).toThrow(UsageError);
    expect(() => run(...(flags as string[]))).toThrow(message);
  });

  it('documents the three flags in --help', () => {
    for (const flag of ['--slowdown', '--jitter', '--dead-rank']) expect(USAGE).toContain(flag);
  });
});
