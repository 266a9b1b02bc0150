/**
 * Spaced review: FSRS brings a card back after a day when the reader forgot it and later when they
 * knew it; the schedule is stored with the progress, and export/import carry it (old exports without
 * it still import).
 */
import { beforeEach, describe, expect, it } from 'vitest';
import {
  dueIds,
  exportProgress,
  importProgress,
  markCard,
  reviewStates,
  storeReview,
} from '../../../src/lib/questions/progress-store';
import { dueIn, review } from '../../../src/lib/questions/review-schedule';

// progress-store runs in the browser: give it a localStorage and a document to dispatch on.
const memory = new Map<string, string>();
Object.assign(globalThis, {
  localStorage: {
    getItem: (k: string) => memory.get(k) ?? null,
    setItem: (k: string, v: string) => void memory.set(k, v),
  },
  document: { dispatchEvent: () => true },
  CustomEvent: class {
    constructor(public type: string) {}
  },
});

const DAY = 86_400_000;
const t0 = new Date('2026-03-02T09:00:00Z');
const later = (days: number) => new Date(t0.getTime() + days * DAY);

describe('review schedule', () => {
  beforeEach(() => memory.clear());

  it('brings a forgotten card back tomorrow, a known one later, an easy one later still', () => {
    const due = (o: Parameters<typeof review>[1]) =>
      (Date.parse(review(undefined, o, t0).due) - t0.getTime()) / DAY;
    expect(due('forgot')).toBe(1);
    expect(due('knew')).toBeGreaterThan(due('forgot'));
    expect(due('easy')).toBeGreaterThan(due('knew'));
  });

  it('stretches the interval each time the reader knows it again', () => {
    const first = review(undefined, 'knew', t0);
    const second = review(first, 'knew', new Date(first.due));
    const gap = (r: { due: string; last: string }) => Date.parse(r.due) - Date.parse(r.last);
    expect(gap(second)).toBeGreaterThan(gap(first));
    expect(review(second, 'forgot', new Date(second.due)).lapses).toBe(1);
  });

  it('a card is due once its day has come, not before', () => {
    storeReview('bus-bandwidth', review(undefined, 'knew', t0));
    expect(dueIds(t0)).toEqual([]);
    expect(dueIds(later(1))).toEqual([]);
    expect(dueIds(later(3))).toEqual(['bus-bandwidth']);
    expect(dueIn(reviewStates()['bus-bandwidth']!.due, t0)).toMatch(/^in \d+ days$/);
    expect(dueIn(t0.toISOString(), t0)).toBe('today');
  });

  it('export and import carry the schedule; an old export without one still imports', () => {
    markCard('bus-bandwidth', 'solved');
    storeReview('bus-bandwidth', review(undefined, 'forgot', t0));
    const file = exportProgress();
    memory.clear();
    expect(importProgress(file, ['bus-bandwidth'])).toEqual({ stored: 1, skipped: 0 });
    expect(dueIds(later(1))).toEqual(['bus-bandwidth']);
    memory.clear();
    const old = JSON.stringify({
      version: 1,
      cards: { 'bus-bandwidth': { status: 'solved', at: t0.toISOString() } },
    });
    expect(importProgress(old).stored).toBe(1);
    expect(reviewStates()).toEqual({});
    const bad = JSON.stringify({ version: 1, cards: {}, review: { x: { due: 'never' } } });
    expect(() => importProgress(bad)).toThrow('invalid review entry for "x"');
  });
});
