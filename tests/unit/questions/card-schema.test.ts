import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { questionSchema } from '../../../src/lib/content-schemas';
import { gradeQuantity } from '../../../src/lib/questions/quantity-grader';
import { chapterIds, QUESTIONS_DIR, readCards } from './card-files';

const cards = readCards();
const ids = new Set(cards.map((c) => c.id));
const chapters = chapterIds();

describe('question cards', () => {
  it('has at least 54 cards, covering every chapter', () => {
    expect(cards.length).toBeGreaterThanOrEqual(54);
    for (const ch of chapters)
      expect(cards.filter((c) => c.data.chapter === ch).length, ch).toBeGreaterThanOrEqual(3);
  });

  for (const card of cards) {
    describe(card.id, () => {
      const parsed = questionSchema.safeParse(card.data);
      it('matches the schema, names an existing chapter and links existing follow-ups', () => {
        expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
        expect(card.id).toMatch(/^[a-z0-9-]+$/);
        expect(chapters).toContain(card.data.chapter);
        const follow = (card.data.followUps ?? []) as string[];
        for (const f of follow) expect(ids.has(f), `follow-up ${f}`).toBe(true);
        expect(follow).not.toContain(card.id);
        expect(card.body.trim().length, 'model answer').toBeGreaterThan(300);
      });

      if (!parsed.success) return;
      parsed.data.exercises.forEach((ex, i) => {
        it(`exercise ${i} (${ex.kind}) is well formed`, () => {
          if (ex.kind === 'numeric') {
            // The card's own answer, in its own unit and in base units, must grade as correct.
            expect(
              gradeQuantity(`${ex.value} ${ex.unit}`, ex.value, ex.unit, ex.tolerance).status,
            ).toBe('correct');
            expect(
              gradeQuantity(`${ex.value * 1.2} ${ex.unit}`, ex.value, ex.unit, ex.tolerance).status,
            ).toBe('wrong-value');
            expect(gradeQuantity('', ex.value, ex.unit, ex.tolerance).status).toBe('invalid');
          } else if (ex.kind === 'code') {
            for (const f of [ex.starter, ex.solution, ex.checks])
              expect(existsSync(join(QUESTIONS_DIR, 'exercises', f)), f).toBe(true);
          } else {
            const right = ex.options.filter((o) => o.correct).length;
            if (ex.kind === 'single') expect(right).toBe(1);
            else expect(right).toBeGreaterThanOrEqual(1);
            expect(new Set(ex.options.map((o) => o.text)).size).toBe(ex.options.length);
          }
        });
      });
    });
  }
});
