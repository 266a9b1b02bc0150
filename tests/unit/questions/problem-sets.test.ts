/**
 * The worked problem sets: one per chapter, 3–6 multi-step problems, every step's computed answer
 * grades as correct in its own unit, every listed mistake is named, and every worked solution is there.
 */
import { describe, expect, it } from 'vitest';
import { PROBLEM_SETS } from '../../../src/lib/questions/problem-sets';
import { gradeQuantity } from '../../../src/lib/questions/quantity-grader';
import { chapterIds } from './card-files';

describe('problem sets', () => {
  it('every chapter has one, with 3–6 problems of at least two steps', () => {
    expect(PROBLEM_SETS.map((p) => p.chapter).sort()).toEqual(chapterIds().sort());
    for (const set of PROBLEM_SETS) {
      expect(set.problems.length, set.chapter).toBeGreaterThanOrEqual(3);
      expect(set.problems.length, set.chapter).toBeLessThanOrEqual(6);
      for (const p of set.problems) expect(p.steps.length, p.title).toBeGreaterThanOrEqual(2);
    }
  });

  for (const set of PROBLEM_SETS)
    for (const p of set.problems)
      it(`${set.chapter}: ${p.title}`, () => {
        for (const s of p.steps) {
          expect(Number.isFinite(s.value), s.prompt).toBe(true);
          const typed = `${Number(s.value.toPrecision(6))} ${s.unit}`;
          expect(
            gradeQuantity(typed, s.value, s.unit, s.tolerance, s.mistakes).status,
            `${s.prompt}: ${typed}`,
          ).toBe('correct');
          expect(s.solution.length, s.prompt).toBeGreaterThan(15);
          expect(s.solution, s.prompt).not.toMatch(/NaN|undefined|Infinity/);
          (s.mistakes ?? []).forEach((m, i) =>
            expect(
              gradeQuantity(`${m.value} ${s.unit}`, s.value, s.unit, s.tolerance, s.mistakes),
              m.why,
            ).toMatchObject({ mistake: i }),
          );
        }
      });
});
