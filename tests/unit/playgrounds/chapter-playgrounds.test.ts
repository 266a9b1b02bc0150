import { describe, expect, it } from 'vitest';
import { runProgram } from '../../../playground/cluster/node.ts';
import {
  onePerRun,
  playgroundCaseName,
  runPlaygroundCase,
  WALL_CLOCK_PLAYGROUNDS,
} from './playground-cases.ts';
import {
  NOT_EMBEDDED,
  playgroundFiles,
  playgroundManifest,
  readProgram,
} from '../../playground-manifest.ts';

const manifest = await playgroundManifest();
const chapterOrStandalone = onePerRun(manifest);

describe('the playground manifest', () => {
  it('lists every program file once, and every program says what it prints', () => {
    const files = playgroundFiles();
    expect([...new Set(manifest.map((p) => p.src))].sort()).toEqual(files);
    for (const p of manifest)
      expect(
        p.expect.length,
        `${p.src}: embed it with expect=… or add it to NOT_EMBEDDED`,
      ).toBeGreaterThan(0);
  });

  it('NOT_EMBEDDED holds only programs no page embeds', () => {
    for (const src of Object.keys(NOT_EMBEDDED))
      expect(manifest.find((p) => p.src === src)?.page, src).toBeNull();
  });
});

describe('every chapter playground (and every program no page embeds) prints its expected lines on every rank', () => {
  for (const p of chapterOrStandalone)
    if (!WALL_CLOCK_PLAYGROUNDS.includes(p.src))
      it(playgroundCaseName(p), () => runPlaygroundCase(p), 300_000);
});

it('the scaling program reports a positive throughput', async () => {
  const { result, record } = await runProgram({
    code: readProgram('03-scaling-throughput.ts'),
    worldSize: 2,
    backend: 'cpu',
  });
  expect(result.ok).toBe(true);
  const line = record.logs[0]!.find((l) => /throughput:/.test(l));
  expect(Number(/throughput: ([\d.]+)/.exec(line ?? '')?.[1])).toBeGreaterThan(0);
}, 90_000);
