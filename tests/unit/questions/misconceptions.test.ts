/**
 * Every misconception hint on every card, fed its own wrong answer: the grader must name that
 * mistake (not another, not "correct", not the generic "too high/low"), in the card's unit and in
 * another spelling of it.
 */
import { describe, expect, it } from 'vitest';
import { questionSchema } from '../../../src/lib/content-schemas';
import { gradeQuantity } from '../../../src/lib/questions/quantity-grader';
import { readCards } from './card-files';

const numeric = readCards().flatMap((c) =>
  questionSchema
    .parse(c.data)
    .exercises.flatMap((ex, i) =>
      ex.kind === 'numeric' ? [{ card: c.id, key: `${c.id}#${i}`, ex }] : [],
    ),
);

describe('misconception hints', () => {
  it('every numeric exercise lists at least one common mistake, on at least 40 cards', () => {
    for (const { key, ex } of numeric) expect(ex.mistakes.length, key).toBeGreaterThan(0);
    expect(new Set(numeric.map((n) => n.card)).size).toBeGreaterThanOrEqual(40);
  });

  for (const { key, ex } of numeric)
    describe(key, () => {
      ex.mistakes.forEach((m, i) => {
        it(`names mistake ${i} (${m.value} ${ex.unit}) when fed it`, () => {
          const v = gradeQuantity(
            `${m.value} ${ex.unit}`,
            ex.value,
            ex.unit,
            ex.tolerance,
            ex.mistakes,
          );
          expect(v).toEqual({ status: 'wrong-value', message: `Not quite. ${m.why}`, mistake: i });
          // Rounded to three significant figures, as a reader would type it, it is still recognised.
          const rounded = `${Number(m.value.toPrecision(3))} ${ex.unit}`;
          expect(
            gradeQuantity(rounded, ex.value, ex.unit, ex.tolerance, ex.mistakes),
          ).toMatchObject({ mistake: i });
        });
      });
      it('the right answer is never taken for a mistake', () => {
        expect(
          gradeQuantity(`${ex.value} ${ex.unit}`, ex.value, ex.unit, ex.tolerance, ex.mistakes)
            .status,
        ).toBe('correct');
      });
    });
});
