/**
 * Spaced review with FSRS (ts-fsrs): after each visit a card is rated from how the reader did, and
 * FSRS picks the day it should come back, just before the reader is likely to forget it.
 * No learning steps of minutes: a book is reread on another day, so the shortest interval is a day.
 */
import { createEmptyCard, fsrs, Rating, type Card, type Grade } from 'ts-fsrs';
import type { ReviewState } from './progress-store';

const scheduler = fsrs({ enable_fuzz: false, learning_steps: [], relearning_steps: [] });

/** How a visit went, in the reader's terms. */
export type Outcome = 'forgot' | 'struggled' | 'knew' | 'easy';
const GRADE: Record<Outcome, Grade> = {
  forgot: Rating.Again,
  struggled: Rating.Hard,
  knew: Rating.Good,
  easy: Rating.Easy,
};

function toCard(r: ReviewState | undefined, now: Date): Card {
  if (!r) return createEmptyCard(now);
  return {
    due: new Date(r.due),
    last_review: new Date(r.last),
    stability: r.stability,
    difficulty: r.difficulty,
    elapsed_days: r.elapsed,
    scheduled_days: r.scheduled,
    learning_steps: r.steps,
    reps: r.reps,
    lapses: r.lapses,
    state: r.state,
  };
}

/** The review state after a visit with `outcome` at `now`. */
export function review(
  previous: ReviewState | undefined,
  outcome: Outcome,
  now: Date,
): ReviewState {
  const { card } = scheduler.next(toCard(previous, now), now, GRADE[outcome]);
  return {
    due: card.due.toISOString(),
    last: now.toISOString(),
    stability: card.stability,
    difficulty: card.difficulty,
    elapsed: card.elapsed_days,
    scheduled: card.scheduled_days,
    steps: card.learning_steps,
    reps: card.reps,
    lapses: card.lapses,
    state: card.state,
  };
}

/** "today", "tomorrow", "in 3 days": when a card comes back, counted in calendar days from `now`. */
export function dueIn(due: string, now: Date): string {
  const day = (d: Date) => Math.floor((d.getTime() - d.getTimezoneOffset() * 60_000) / 86_400_000);
  const days = day(new Date(due)) - day(now);
  return days <= 0 ? 'today' : days === 1 ? 'tomorrow' : `in ${days} days`;
}
