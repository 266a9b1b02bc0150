import { expect } from 'vitest';
import { runProgram } from '../../../playground/cluster/node.ts';
import { playgroundManifest, readProgram } from '../../playground-manifest.ts';
import { expectTimeAgreement } from './time-agreement.ts';
import { SCALE_CHECKS } from './scale-checks.ts';

export type Embed = Awaited<ReturnType<typeof playgroundManifest>>[number];

/**
 * Playgrounds whose printed verdicts compare real elapsed times between ranks (an async all-reduce
 * overlapping work while a late rank sleeps): wall-clock-playgrounds.test.ts runs them with the cores to
 * themselves (vitest's timed project), because beside another test file the race can go either way.
 */
export const WALL_CLOCK_PLAYGROUNDS = ['02-groups-and-async.ts'];

/** Chapter and standalone embeds, one per run: a program on two pages at the same world runs once, checked against both pages' lines. */
export function onePerRun(manifest: readonly Embed[]): Embed[] {
  const runs = new Map<string, Embed>();
  for (const p of manifest) {
    if (p.page === 'lab') continue;
    const key = `${p.src}@${p.world}@${p.onlyRank}`;
    const seen = runs.get(key);
    runs.set(
      key,
      seen
        ? {
            ...seen,
            page: `${seen.page} and ${p.page}`,
            expect: [...new Set([...seen.expect, ...p.expect])],
          }
        : p,
    );
  }
  return [...runs.values()];
}

export function playgroundCaseName(p: Embed): string {
  return `${p.src} on ${p.world} ranks${p.cluster ? ` as ${p.cluster.preset}` : ''}${p.page ? ` (${p.page})` : ' (not embedded)'}`;
}

/** Chapters 7–9 and chapter 1's transformer demo train transformer blocks: WASM runs them several times faster than CPU. */
export const backendOf = (src: string): 'cpu' | 'wasm' =>
  /^0[789]-|char-transformer/.test(src) ? 'wasm' : 'cpu';

/** The world sizes twin-runs.test.ts runs every twin at. */
export const TWIN_WORLDS: readonly number[] = [2, 4];

/**
 * Whether twin-runs.test.ts already runs this embed's program as its page does (same ranks and backend, real time)
 * and checks the page's lines there: then the chapter test leaves it to that run instead of running it again.
 */
export function runByTwin(
  p: Embed,
  twins: readonly { playground: string; backend?: string; worlds?: readonly number[] }[],
) {
  const twin = twins.find((c) => c.playground === p.src);
  // RANKS_TWINS (twin-runs.test.ts) narrows the twins run to a few while one is being written.
  const only = process.env.RANKS_TWINS?.split(',').filter(Boolean);
  return (
    twin !== undefined &&
    (!only || only.includes(p.src)) &&
    !WALL_CLOCK_PLAYGROUNDS.includes(p.src) &&
    (twin.worlds ?? TWIN_WORLDS).includes(p.world) &&
    !p.cluster &&
    (twin.backend ?? 'cpu') === backendOf(p.src)
  );
}

/** Expects the page's lines on every rank (or the one it names) of a finished run's logs. */
export function expectPageLines(p: Embed, logs: readonly string[][]): void {
  logs.forEach((lines, rank) => {
    if (p.onlyRank !== undefined && rank !== p.onlyRank) return;
    for (const line of p.expect) expect(lines.join('\n'), `rank ${rank}`).toContain(line);
  });
}

/** Runs the program in Node workers and expects its page's lines on every rank (or the one it names). */
export async function runPlaygroundCase(p: Embed): Promise<void> {
  const { result, record } = await runProgram({
    code: readProgram(p.src),
    worldSize: p.world,
    backend: backendOf(p.src),
    timeoutMs: 240_000,
    ...(p.cluster ? { cluster: p.cluster } : {}),
  });
  expect(
    result.ok,
    JSON.stringify(record.ranks.map((r) => r.lines.filter((l) => l.kind === 'failure'))),
  ).toBe(true);
  expectPageLines(p, record.logs);
  // On a simulated cluster the step report must agree with itself and with the program's own lines.
  if (p.cluster) expectTimeAgreement(p.src, record);
  SCALE_CHECKS[p.src]?.(record, p.world);
}
