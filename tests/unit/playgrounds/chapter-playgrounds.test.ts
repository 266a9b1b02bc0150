import { describe, expect, it } from 'vitest';
import { runProgram } from '../../../playground/cluster/node.ts';
import {
  NOT_EMBEDDED,
  playgroundFiles,
  playgroundManifest,
  readProgram,
} from '../../playground-manifest.ts';

const manifest = await playgroundManifest();
// A program embedded on two pages at the same world runs once, checked against both pages' lines.
const chapterOrStandalone = [
  ...manifest
    .filter((p) => p.page !== 'lab')
    .reduce((runs, p) => {
      const key = `${p.src}@${p.world}@${p.onlyRank}`;
      const seen = runs.get(key);
      if (seen)
        runs.set(key, {
          ...seen,
          page: `${seen.page} and ${p.page}`,
          expect: [...new Set([...seen.expect, ...p.expect])],
        });
      else runs.set(key, p);
      return runs;
    }, new Map<string, (typeof manifest)[number]>())
    .values(),
];

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
  for (const p of chapterOrStandalone) {
    it(`${p.src} on ${p.world} ranks${p.cluster ? ` as ${p.cluster.preset}` : ''}${p.page ? ` (${p.page})` : ' (not embedded)'}`, async () => {
      // Chapters 7–9 and chapter 1's transformer demo train transformer blocks: WASM runs them several times faster than CPU.
      const backend = /^0[789]-|char-transformer/.test(p.src) ? 'wasm' : 'cpu';
      const { result, record } = await runProgram({
        code: readProgram(p.src),
        worldSize: p.world,
        backend,
        timeoutMs: 240_000,
        ...(p.cluster ? { cluster: p.cluster } : {}),
      });
      expect(
        result.ok,
        JSON.stringify(record.ranks.map((r) => r.lines.filter((l) => l.kind === 'failure'))),
      ).toBe(true);
      record.logs.forEach((lines, rank) => {
        if (p.onlyRank !== undefined && rank !== p.onlyRank) return;
        for (const line of p.expect) expect(lines.join('\n'), `rank ${rank}`).toContain(line);
      });
    }, 300_000);
  }
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
