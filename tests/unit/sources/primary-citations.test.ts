import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import GithubSlugger from 'github-slugger';
import { describe, expect, it } from 'vitest';
import { PRIMARY_SOURCES } from '../../../src/lib/source-map';

const PRIMARY_CITATIONS = PRIMARY_SOURCES.filter((c) => /^(0[789]|10)-/.test(c.chapter));

const dir = join(process.cwd(), 'content', 'chapters');
function headingIds(file: string): string[] {
  const src = readFileSync(join(dir, file), 'utf8').replace(/```[\s\S]*?```/g, '');
  const slugger = new GithubSlugger();
  return [...src.matchAll(/^#{2,6} (.+)$/gm)].map((m) =>
    slugger.slug(m[1]!.replace(/`/g, '').replace(/\*\*?/g, '')),
  );
}

describe('primary citations of chapters 7–10', () => {
  it.each(PRIMARY_CITATIONS.map((c) => [c.claim, c.chapter, c.anchor] as const))(
    '"%s" → %s#%s exists',
    (_, chapter, anchor) => {
      expect(headingIds(chapter)).toContain(anchor);
    },
  );
  it('every chapter section with a factual heading is cited, and every citation names a place in its source', () => {
    for (const c of PRIMARY_CITATIONS) {
      expect(c.source, c.claim).toMatch(/, .{3,}/); // names a section, or a file and function
      expect(c.url, c.claim).toMatch(/^https:\/\//);
    }
    const cited = new Set(PRIMARY_CITATIONS.map((c) => `${c.chapter}#${c.anchor}`));
    for (const [file, anchors] of [
      [
        '07-activations-and-precision.mdx',
        [
          'counting-the-bytes-of-one-layer',
          'recomputation-full-and-selective',
          'mixed-precision-in-practice',
        ],
      ],
      [
        '08-batch-size-and-learning-rate.mdx',
        [
          'the-linear-scaling-rule-and-warm-up',
          'adam-and-the-square-root-rule',
          'lars-and-lamb-a-rate-per-layer',
          'the-gradient-noise-scale-and-the-critical-batch-size',
          'batch-size-in-tokens',
        ],
      ],
      [
        '09-operating-at-scale.mdx',
        [
          'hierarchical-collectives-and-rails',
          'hsdp-shard-inside-a-node-replicate-across-nodes',
          'gradient-clipping-under-sharding',
          'sharded-checkpoints-and-resharding',
          'elastic-launch-and-restarts',
          'stragglers-and-failures-at-thousands-of-gpus',
          'low-communication-data-parallelism',
        ],
      ],
      [
        '10-communicating-less.mdx',
        [
          'when-bandwidth-is-the-wall',
          'compressing-gradients-ddps-communication-hooks',
          'zero-quantized-and-hierarchical-zero-3',
          'fp8-in-the-data-parallel-loop',
          'local-sgd-and-diloco',
        ],
      ],
    ] as const)
      for (const a of anchors) expect(cited.has(`${file}#${a}`), `${file}#${a}`).toBe(true);
  });
});
