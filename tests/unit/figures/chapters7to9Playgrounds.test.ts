import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ClusterEvent } from '../../../playground/cluster/protocol.ts';
import { runProgram } from '../../../playground/cluster/node.ts';

// Every playground of chapters 7–9 runs in Node worker threads and prints its `expect` lines on every rank.
const dir = join(process.cwd(), 'content', 'chapters');
const OWNED = /^0[789]-/;

const embeds = readdirSync(dir).filter((f) => OWNED.test(f) && f.endsWith('.mdx')).flatMap((chapter) => {
  const mdx = readFileSync(join(dir, chapter), 'utf8');
  const scope: Record<string, number> = {};
  for (const m of mdx.matchAll(/^export const (\w+) = (\d+);$/gm)) scope[m[1]!] = Number(m[2]);
  for (const m of mdx.matchAll(/^export const (\w+) = \{([^}]*)\};$/gm)) for (const kv of m[2]!.matchAll(/(\w+): (\d+)/g)) scope[`${m[1]}.${kv[1]}`] = Number(kv[2]);
  return [...mdx.matchAll(/<Playground\s([^\n]*?)\/>/g)].map((tag) => {
    const attrs = tag[1]!;
    const world = /world=\{([\w.]+)\}/.exec(attrs)![1]!;
    return { chapter, src: /src="([^"]+)"/.exec(attrs)![1]!, world: /^\d+$/.test(world) ? Number(world) : scope[world]!, expect: JSON.parse(/expect=\{(\[.*\])\}/.exec(attrs)![1]!) as string[] };
  });
});

describe('chapters 7–9: playgrounds print what their chapters promise', () => {
  it('finds every program of these chapters, each embedded with expected lines', () => {
    expect(embeds.map((e) => e.src).sort()).toEqual(readdirSync(join(dir, 'playgrounds')).filter((f) => OWNED.test(f)).sort());
    for (const e of embeds) expect(e.expect.length, e.src).toBeGreaterThan(0);
  });
  for (const e of embeds) {
    it(`${e.src} on ${e.world} ranks`, async () => {
      const code = readFileSync(join(dir, 'playgrounds', e.src), 'utf8');
      // WASM, as most browsers run them: several times faster than the CPU backend for the transformer and the ledger.
      const { result, events } = await runProgram({ code, worldSize: e.world, backend: 'wasm', timeoutMs: 240_000 });
      const errors = (events as ClusterEvent[]).filter((x) => x.type === 'error');
      expect(result.ok, JSON.stringify(errors)).toBe(true);
      for (let rank = 0; rank < e.world; rank++) {
        const out = (events as ClusterEvent[]).flatMap((x) => (x.type === 'log' && x.rank === rank ? [x.text] : [])).join('\n');
        for (const line of e.expect) expect(out, `rank ${rank}`).toContain(line);
      }
    }, 300_000);
  }
});
