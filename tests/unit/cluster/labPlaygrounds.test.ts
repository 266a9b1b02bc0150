import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runProgram } from '../../../playground/cluster/node.ts';
import { LAB_PLAYGROUNDS } from '../../../src/lib/playground/labPlaygrounds.ts';

describe('collectives lab programs', () => {
  for (const p of LAB_PLAYGROUNDS) {
    for (const world of [1, 3, 4]) {
      it(`${p.src} on ${world} ranks prints ${JSON.stringify(p.expect)} on every rank`, async () => {
        const code = readFileSync(join(process.cwd(), 'content', 'chapters', 'playgrounds', p.src), 'utf8');
        const { result, events } = await runProgram({ code, worldSize: world, backend: 'cpu' });
        expect(result.ok, JSON.stringify(events.filter((e) => e.type === 'error'))).toBe(true);
        for (let r = 0; r < world; r++) {
          const text = events.filter((e) => e.type === 'log' && e.rank === r).map((e) => (e as { text: string }).text).join('\n');
          for (const line of p.expect) expect(text, `rank ${r}`).toContain(line);
        }
      });
    }
  }
});
