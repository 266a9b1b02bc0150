import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runProgram } from '../../../playground/cluster/node';

// Every playground of chapters 2 and 3 must print its `expect` lines on the default number of ranks.
const CHAPTERS = ['02-collectives.mdx', '03-data-parallel-from-scratch.mdx'];
const dir = join(process.cwd(), 'content', 'chapters');

const playgrounds = CHAPTERS.flatMap((file) =>
  [...readFileSync(join(dir, file), 'utf8').matchAll(/<Playground\s+src="([^"]+)"\s+world=\{(\d+)\}[^>]*?expect=\{(\[.*?\])\}\s*\/>/g)].map((m) => ({
    file, src: m[1]!, world: Number(m[2]), expect: JSON.parse(m[3]!) as string[],
  })));

describe('chapter 2 and 3 playgrounds', () => {
  it('finds the playgrounds the chapters embed', () => {
    expect(playgrounds.map((p) => p.src)).toEqual([
      '02-broadcast-scatter-gather.ts', '02-all-reduce-family.ts', '02-groups-and-async.ts', '02-ring-all-reduce-starter.ts', '02-ring-all-reduce-solution.ts',
      '03-data-parallel-wrapper.ts', '03-unequal-shards.ts', '03-gradient-accumulation.ts', '03-batchnorm.ts', '03-sync-batchnorm-training.ts',
    ]);
  });
  it.each(playgrounds)('$src prints its expected lines on $world ranks', async ({ src, world, expect: lines }) => {
    const code = readFileSync(join(dir, 'playgrounds', src), 'utf8');
    const { result, events } = await runProgram({ code, worldSize: world, backend: 'cpu' });
    const out = events.flatMap((e) => (e.type === 'log' ? [e.text] : e.type === 'error' ? [`error: ${e.message}`] : [])).join('\n');
    expect(result.ok, out).toBe(true);
    for (const line of lines) expect(out).toContain(line);
  }, 90_000);
});

it('the scaling program reports a positive throughput', async () => {
  const code = readFileSync(join(dir, 'playgrounds', '03-scaling-throughput.ts'), 'utf8');
  const { result, events } = await runProgram({ code, worldSize: 2, backend: 'cpu' });
  expect(result.ok).toBe(true);
  const line = events.find((e) => e.type === 'log' && /throughput:/.test(e.text));
  expect(Number(/throughput: ([\d.]+)/.exec(line?.type === 'log' ? line.text : '')?.[1])).toBeGreaterThan(0);
}, 90_000);
