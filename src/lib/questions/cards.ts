import { getCollection, type CollectionEntry } from 'astro:content';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export type Card = CollectionEntry<'questions'>;

export const cardHref = (id: string) => `/questions/${id}/`;

export const DIFFICULTY_LABEL = ['', 'warm-up', 'easy', 'medium', 'hard', 'expert'] as const;

/** Cards ordered by chapter, then difficulty, then id, so lists read like the book. */
export async function cardsInOrder(): Promise<Card[]> {
  const cards = await getCollection('questions');
  return cards.sort(
    (a, b) =>
      a.data.chapter.id.localeCompare(b.data.chapter.id) ||
      a.data.difficulty - b.data.difficulty ||
      a.id.localeCompare(b.id),
  );
}

/** Source of a code exercise file (content/questions/exercises/…), read at build time. */
export function exerciseSource(file: string): string {
  const dir = join(
    process.env.RANKS_CONTENT_DIR ?? join(process.cwd(), 'content'),
    'questions',
    'exercises',
  );
  try {
    return readFileSync(join(dir, file), 'utf8');
  } catch {
    throw new Error(`Code exercise file ${file} not found in ${dir}`);
  }
}
