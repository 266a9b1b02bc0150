import { describe, expect, it } from 'vitest';
import { nextUnsolved } from '../../../src/lib/questions/practice';

describe('nextUnsolved', () => {
  const ids = ['a', 'b', 'c', 'd'];
  it('prefers cards never tried, after the current one, wrapping around', () => {
    expect(nextUnsolved(ids, {})).toBe('a');
    expect(nextUnsolved(ids, {}, 'c')).toBe('d');
    expect(nextUnsolved(ids, { d: 'solved', a: 'attempted' }, 'c')).toBe('b');
  });
  it('falls back to attempted cards, never serves solved ones or the current card', () => {
    expect(nextUnsolved(ids, { a: 'solved', b: 'attempted', c: 'solved', d: 'solved' }, 'a')).toBe(
      'b',
    );
    expect(
      nextUnsolved(ids, { a: 'solved', b: 'solved', c: 'solved', d: 'attempted' }, 'd'),
    ).toBeNull();
    expect(nextUnsolved([], {})).toBeNull();
  });
});
