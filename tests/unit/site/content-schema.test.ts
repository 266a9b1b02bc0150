import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { chapterSchema } from '../../../src/lib/content-schemas';

const run = promisify(execFile);

function fixture(frontmatter: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'ranks-content-'));
  mkdirSync(join(dir, 'chapters'));
  mkdirSync(join(dir, 'questions'));
  writeFileSync(join(dir, 'chapters', '01-broken.mdx'), `---\n${frontmatter}\n---\n\nBody.\n`);
  return dir;
}

/** Runs `astro sync` (the content step of a build) against a content folder; returns its exit and output. */
async function syncContent(contentDir: string): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run('node_modules/.bin/astro', ['sync'], {
      env: {
        ...process.env,
        RANKS_CONTENT_DIR: contentDir,
        RANKS_CACHE_DIR: join(contentDir, '.cache'),
        ASTRO_TELEMETRY_DISABLED: '1',
      },
    });
    return { code: 0, output: stdout + stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, output: err.stdout + err.stderr };
  }
}

describe('chapter frontmatter', () => {
  it('accepts a complete chapter', () => {
    const ok = chapterSchema.safeParse({
      title: 'Collectives',
      order: 2,
      summary: 'How ranks talk to each other.',
      objectives: ['Name them'],
    });
    expect(ok.success).toBe(true);
  });

  it('rejects missing objectives and a non-numeric order, naming each field', () => {
    const bad = chapterSchema.safeParse({
      title: 'Collectives',
      order: 'two',
      summary: 'How ranks talk to each other.',
    });
    expect(bad.success).toBe(false);
    const paths = bad.error!.issues.map((i) => i.path.join('.'));
    expect(paths).toEqual(expect.arrayContaining(['order', 'objectives']));
  });

  it('fails the build with a message naming the file and the field', async () => {
    const dir = fixture(
      'title: Broken\norder: first\nsummary: A chapter whose order is not a number at all.\nobjectives: [one]',
    );
    const { code, output } = await syncContent(dir);
    rmSync(dir, { recursive: true, force: true });
    expect(code).not.toBe(0);
    expect(output).toContain('01-broken');
    expect(output).toMatch(/order/);
    expect(output).toContain(join(dir, 'chapters', '01-broken.mdx'));
  });
});
