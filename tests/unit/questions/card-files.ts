/** Reads the question cards straight from content/questions, as the site build does, for the unit tests. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

export const QUESTIONS_DIR = join(process.cwd(), 'content', 'questions');
export const CHAPTERS_DIR = join(process.cwd(), 'content', 'chapters');

export interface CardFile {
  id: string;
  data: Record<string, unknown>;
  body: string;
  text: string;
}

export function readCards(): CardFile[] {
  return readdirSync(QUESTIONS_DIR)
    .filter((f) => /\.mdx?$/.test(f))
    .sort()
    .map((f) => {
      const text = readFileSync(join(QUESTIONS_DIR, f), 'utf8');
      const m = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(text);
      if (!m) throw new Error(`${f}: no frontmatter`);
      return {
        id: f.replace(/\.mdx?$/, ''),
        data: parse(m[1]!) as Record<string, unknown>,
        body: m[2]!,
        text,
      };
    });
}

export function chapterIds(): string[] {
  return readdirSync(CHAPTERS_DIR)
    .filter((f) => f.endsWith('.mdx'))
    .map((f) => f.replace(/\.mdx$/, ''));
}
