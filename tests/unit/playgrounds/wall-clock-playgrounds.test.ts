import { describe, expect, it } from 'vitest';
import { playgroundManifest } from '../../playground-manifest.ts';
import {
  onePerRun,
  playgroundCaseName,
  runPlaygroundCase,
  WALL_CLOCK_PLAYGROUNDS,
} from './playground-cases.ts';

const runs = onePerRun(await playgroundManifest()).filter((p) =>
  WALL_CLOCK_PLAYGROUNDS.includes(p.src),
);

describe('playgrounds whose verdicts compare real elapsed times print their expected lines on every rank', () => {
  it('each listed playground is embedded', () => {
    expect(runs.map((p) => p.src).sort()).toEqual(expect.arrayContaining(WALL_CLOCK_PLAYGROUNDS));
  });
  for (const p of runs) it(playgroundCaseName(p), () => runPlaygroundCase(p), 300_000);
});
