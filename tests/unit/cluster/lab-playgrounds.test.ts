import { describe, expect, it } from 'vitest';
import { runProgram } from '../../../playground/cluster/node.ts';
import { playgroundManifest, readProgram } from '../../playground-manifest.ts';

const lab = (await playgroundManifest()).filter((p) => p.page === 'lab');

describe('collectives lab programs', () => {
  it('the lab has its programs', () => expect(lab.length).toBeGreaterThan(0));
  for (const p of lab) {
    for (const world of [1, 3, 4]) {
      it(`${p.src} on ${world} ranks prints ${JSON.stringify(p.expect)} on every rank`, async () => {
        const { result, record } = await runProgram({
          code: readProgram(p.src),
          worldSize: world,
          backend: 'cpu',
        });
        expect(result.ok, JSON.stringify(record.events.filter((e) => e.type === 'error'))).toBe(
          true,
        );
        record.logs.forEach((lines, r) => {
          for (const line of p.expect) expect(lines.join('\n'), `rank ${r}`).toContain(line);
        });
      });
    }
  }
});
