/**
 * A mock interview: 5–8 cards drawn across chapters at a chosen level, answered against the clock,
 * then a summary of what was covered and what to reread. Pure logic; the page draws and renders.
 */

export interface MockCard {
  id: string;
  question: string;
  chapter: string;
  chapterTitle: string;
  difficulty: number;
  tags: string[];
  mustMention: string[];
}

export type Level = 'warm-up' | 'standard' | 'senior';

/** Difficulties each level draws from, easiest first. */
export const LEVEL_DIFFICULTIES: Record<Level, readonly number[]> = {
  'warm-up': [1, 2, 3],
  standard: [2, 3, 4],
  senior: [3, 4, 5],
};

/**
 * Draws `count` cards at `level`, at most one per chapter until every chapter has given one, so the
 * interview ranges over the book; ordered from easier to harder, as interviews usually go.
 * `random` returns numbers in [0, 1) (Math.random, or a seeded generator in tests).
 */
export function drawInterview(
  cards: readonly MockCard[],
  count: number,
  level: Level,
  random: () => number = Math.random,
): MockCard[] {
  const allowed = new Set(LEVEL_DIFFICULTIES[level]);
  const pool = cards.filter((c) => allowed.has(c.difficulty));
  const shuffled = [...pool]
    .map((c) => ({ c, k: random() }))
    .sort((a, b) => a.k - b.k)
    .map((x) => x.c);
  const picked: MockCard[] = [];
  const chaptersUsed = new Set<string>();
  // First pass: one card per chapter; further passes fill up if there are fewer chapters than cards.
  for (const pass of [0, 1])
    for (const c of shuffled) {
      if (picked.length === count) break;
      if (picked.includes(c)) continue;
      if (pass === 0 && chaptersUsed.has(c.chapter)) continue;
      picked.push(c);
      chaptersUsed.add(c.chapter);
    }
  return picked.sort((a, b) => a.difficulty - b.difficulty || a.chapter.localeCompare(b.chapter));
}

/** What the reader did on one card: must-mention points ticked, exercises right out of those tried. */
export interface CardResult {
  card: MockCard;
  covered: number[];
  exercisesRight: number;
  exercisesTotal: number;
  answered: boolean;
}

/** A card's score in [0, 1]: the rubric and the graded parts weigh equally when both exist. */
export function cardScore(r: CardResult): number {
  if (!r.answered) return 0;
  const rubric = r.covered.length / r.card.mustMention.length;
  return r.exercisesTotal ? (rubric + r.exercisesRight / r.exercisesTotal) / 2 : rubric;
}

export interface Summary {
  score: number;
  /** Topics (card tags) by average score, weakest first; only topics scored below 0.7. */
  weakestTopics: { topic: string; score: number }[];
  /** Chapters to reread, with the points the reader missed there. */
  reread: { chapter: string; chapterTitle: string; missed: string[] }[];
}

export function summarise(results: readonly CardResult[]): Summary {
  const byTopic = new Map<string, number[]>();
  for (const r of results)
    for (const t of r.card.tags) byTopic.set(t, [...(byTopic.get(t) ?? []), cardScore(r)]);
  const weakestTopics = [...byTopic]
    .map(([topic, s]) => ({ topic, score: s.reduce((a, b) => a + b, 0) / s.length }))
    .filter((t) => t.score < 0.7)
    .sort((a, b) => a.score - b.score || a.topic.localeCompare(b.topic))
    .slice(0, 5);
  const reread = new Map<string, { chapter: string; chapterTitle: string; missed: string[] }>();
  for (const r of results) {
    if (cardScore(r) >= 0.7) continue;
    const entry = reread.get(r.card.chapter) ?? {
      chapter: r.card.chapter,
      chapterTitle: r.card.chapterTitle,
      missed: [],
    };
    entry.missed.push(...r.card.mustMention.filter((_, i) => !r.covered.includes(i)));
    reread.set(r.card.chapter, entry);
  }
  const score = results.length ? results.reduce((a, r) => a + cardScore(r), 0) / results.length : 0;
  return { score, weakestTopics, reread: [...reread.values()] };
}
