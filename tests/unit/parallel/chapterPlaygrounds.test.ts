import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { ClusterEvent } from '../../../playground/cluster/protocol.ts';
import { runProgram } from '../../../playground/cluster/node.ts';
import * as commVolume from '../../../src/lib/figures/commVolume.ts';

const CHAPTERS = fileURLToPath(new URL('../../../content/chapters/', import.meta.url));
/** The chapters whose playgrounds this folder owns: DDP internals, ZeRO, FSDP. */
const OWNED = /^0[456]-/;

interface Embed { chapter: string; src: string; world: number; expect: string[] }

/**
 * Every `<Playground src=… world=… expect=… />` of the owned chapters, with `world` and `expect`
 * evaluated as the MDX would: against the chapter's numeric `export const`s and the figure helpers.
 */
function embeds(): Embed[] {
  const out: Embed[] = [];
  for (const chapter of readdirSync(CHAPTERS).filter((f) => OWNED.test(f) && f.endsWith('.mdx'))) {
    const mdx = readFileSync(CHAPTERS + chapter, 'utf8');
    const scope: Record<string, unknown> = { ...commVolume };
    for (const m of mdx.matchAll(/^export const (\w+) = (\d+);$/gm)) scope[m[1]!] = Number(m[2]);
    const evaluate = (expr: string) => new Function(...Object.keys(scope), `return (${expr});`)(...Object.values(scope)) as unknown;
    for (const tag of mdx.matchAll(/<Playground\s([^\n]*?)\/>/g)) {
      const attrs = tag[1]!;
      const src = /src="([^"]+)"/.exec(attrs)?.[1];
      if (!src) continue;
      const world = /world=\{([^}]+)\}/.exec(attrs)?.[1];
      const expected = /expect=\{(\[.*\])\}/.exec(attrs)?.[1];
      out.push({ chapter, src, world: world ? Number(evaluate(world)) : 4, expect: expected ? (evaluate(expected) as string[]) : [] });
    }
  }
  return out;
}

const embedded = embeds();
const all = embedded;

describe('chapter playgrounds of chapters 4–6 print the lines their chapters expect', () => {
  it('finds the playgrounds, each with expected lines', () => {
    expect(embedded.map((e) => e.src)).toEqual(expect.arrayContaining(['04-communication-overhead.ts', '04-gradient-bucketing.ts', '04-manual-ddp.ts', '05-zero-ledger.ts', '06-fsdp-units.ts']));
    for (const e of all) expect(e.expect.length, e.src).toBeGreaterThan(0);
    // Every program in the owned chapters' folder is run here, embedded or not.
    const files = readdirSync(`${CHAPTERS}playgrounds`).filter((f) => OWNED.test(f));
    expect(all.map((e) => e.src).sort()).toEqual(files.sort());
  });

  for (const e of all) {
    it(`${e.src} on ${e.world} ranks: every rank prints ${JSON.stringify(e.expect)}`, async () => {
      const code = readFileSync(`${CHAPTERS}playgrounds/${e.src}`, 'utf8');
      const { result, events } = await runProgram({ code, worldSize: e.world, backend: 'cpu', timeoutMs: 120_000 });
      const logs = (events as ClusterEvent[]).filter((x): x is Extract<ClusterEvent, { type: 'log' }> => x.type === 'log');
      const errors = (events as ClusterEvent[]).filter((x) => x.type === 'error');
      expect(result.ok, JSON.stringify(errors)).toBe(true);
      for (let rank = 0; rank < e.world; rank++) {
        const output = logs.filter((l) => l.rank === rank).map((l) => l.text).join('\n');
        for (const line of e.expect) expect(output, `rank ${rank}`).toContain(line);
      }
    }, 150_000);
  }
});
