import { describe, expect, it } from 'vitest';
import { questionSchema } from '../../../src/lib/content-schemas';
import {
  cardScore,
  drawInterview,
  LEVEL_DIFFICULTIES,
  summarise,
  type MockCard,
} from '../../../src/lib/questions/mock-interview';
import { readCards } from './card-files';

const bank: MockCard[] = readCards().map((c) => {
  const d = questionSchema.parse(c.data);
  return {
    id: c.id,
    question: d.question,
    chapter: c.data.chapter as string,
    chapterTitle: c.data.chapter as string,
    difficulty: d.difficulty,
    tags: d.tags,
    mustMention: d.cover.mustMention,
  };
});

/** A small seeded generator (mulberry32), so draws are repeatable. */
const seeded = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

describe('drawInterview', () => {
  for (const level of ['warm-up', 'standard', 'senior'] as const)
    for (const count of [5, 8])
      it(`${level}, ${count} cards: distinct chapters, the level's difficulties, easier first`, () => {
        for (let seed = 1; seed <= 20; seed++) {
          const drawn = drawInterview(bank, count, level, seeded(seed));
          expect(drawn).toHaveLength(count);
          expect(new Set(drawn.map((c) => c.chapter)).size).toBe(count);
          for (const c of drawn) expect(LEVEL_DIFFICULTIES[level]).toContain(c.difficulty);
          const d = drawn.map((c) => c.difficulty);
          expect(d).toEqual([...d].sort((a, b) => a - b));
        }
      });
  it('different seeds draw different interviews', () => {
    const ids = (s: number) =>
      drawInterview(bank, 6, 'standard', seeded(s))
        .map((c) => c.id)
        .join();
    expect(new Set([1, 2, 3, 4, 5].map(ids)).size).toBeGreaterThan(1);
  });
});

describe('summarise', () => {
  const card = (id: string, chapter: string, tags: string[]): MockCard => ({
    id,
    question: id,
    chapter,
    chapterTitle: `Chapter ${chapter}`,
    difficulty: 3,
    tags,
    mustMention: ['a', 'b', 'c', 'd'],
  });
  it('scores rubric and graded parts, names the weakest topics and the chapters to reread', () => {
    const results = [
      {
        card: card('x', '01', ['ring']),
        covered: [0, 1, 2, 3],
        exercisesRight: 1,
        exercisesTotal: 1,
        answered: true,
      },
      {
        card: card('y', '05', ['zero', 'memory']),
        covered: [0],
        exercisesRight: 0,
        exercisesTotal: 2,
        answered: true,
      },
      {
        card: card('z', '06', ['fsdp']),
        covered: [],
        exercisesRight: 0,
        exercisesTotal: 0,
        answered: false,
      },
    ];
    expect(results.map(cardScore)).toEqual([1, 0.125, 0]);
    const s = summarise(results);
    expect(s.score).toBeCloseTo(1.125 / 3, 12);
    expect(s.weakestTopics.map((t) => t.topic)).toEqual(['fsdp', 'memory', 'zero']);
    expect(s.reread).toEqual([
      { chapter: '05', chapterTitle: 'Chapter 05', missed: ['b', 'c', 'd'] },
      { chapter: '06', chapterTitle: 'Chapter 06', missed: ['a', 'b', 'c', 'd'] },
    ]);
  });
});
