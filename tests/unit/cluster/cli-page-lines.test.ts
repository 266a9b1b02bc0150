import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rawEmbeds } from '../../playground-manifest.ts';

/**
 * Page = CLI (issue 31): a playground run from the CLI with the flags its page preselects prints the
 * lines the page expects. The flags come from the chapter's own <Playground … /> embed, so a change to
 * the page's defaults changes what is run here.
 */
const cli = join(process.cwd(), 'playground', 'cli', 'ranks.ts');
const PLAYGROUNDS = [
  { chapter: '03-data-parallel-from-scratch.mdx', src: '03-straggler.ts' },
  { chapter: '04-inside-ddp.mdx', src: '04-scaling-nodes.ts' },
];

const run = (args: string[]) =>
  new Promise<{ status: number | null; stdout: string; stderr: string }>((done) => {
    const child = spawn(process.execPath, [cli, ...args], { cwd: process.cwd() });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (status) => done({ status, stdout, stderr }));
  });

describe('npm run ranks -- run prints a playground’s page lines with the page’s options', () => {
  it('03-straggler.ts (--slowdown) and 04-scaling-nodes.ts (two nodes), run side by side', async () => {
    // Both embeds give their expect lines as literal arrays (no chapter expression to evaluate).
    const entries = PLAYGROUNDS.map(({ chapter, src }) => {
      const e = rawEmbeds(chapter).find((x) => x.src === src)!;
      const c = e.cluster!;
      return {
        src,
        cluster: c,
        world: c.nodes * c.gpusPerNode,
        expect: JSON.parse(e.expect!) as string[],
      };
    });
    const runs = entries.map((e) => {
      const c = e.cluster;
      const flags = ['--cluster', c.preset, '--nodes', String(c.nodes)];
      flags.push('--gpus-per-node', String(c.gpusPerNode));
      const slow = Object.entries(c.slowdown ?? {}).map(([r, f]) => `${r}:${f}`);
      if (slow.length) flags.push('--slowdown', slow.join(','));
      return run(['run', join('content', 'chapters', 'playgrounds', e.src), ...flags]);
    });
    const outs = await Promise.all(runs);
    entries.forEach((e, i) => {
      const out = outs[i]!;
      expect(out.status, `${e.src}: ${out.stderr}`).toBe(0);
      expect(e.expect.length, e.src).toBeGreaterThan(0);
      for (const r of Array(e.world).keys())
        for (const line of e.expect)
          expect(out.stdout, `${e.src} rank ${r}`).toContain(`[rank ${r}] ${line}`);
      // Virtual time says so, and which cluster.
      expect(out.stdout).toContain(`virtual time on ${e.cluster.preset}`);
    });
  }, 120_000);
});
