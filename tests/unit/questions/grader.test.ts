import { describe, expect, it } from 'vitest';
import { gradeQuantity, parseQuantity } from '../../../src/lib/questions/quantity-grader';
import { gradeChoice } from '../../../src/lib/questions/choice-grader';

describe('gradeQuantity', () => {
  it('accepts every spelling of the same amount of memory', () => {
    for (const a of [
      '14 GB',
      '14GB',
      '1.4e10 bytes',
      '14000 MB',
      '14,000 MB',
      '14 000 MB',
      '1.4 × 10^10 B',
      '14e9 B',
      '0.014 TB',
      '14 gigabytes',
    ])
      expect(gradeQuantity(a, 14, 'GB', 0.02), a).toMatchObject({ status: 'correct' });
  });
  it('says when the unit is of the wrong kind, and when bits were confused with bytes', () => {
    expect(gradeQuantity('14 ms', 14, 'GB', 0.02)).toMatchObject({
      status: 'wrong-unit',
      message: expect.stringContaining('a time'),
    });
    expect(gradeQuantity('112 Gb', 14, 'GB', 0.02)).toMatchObject({
      status: 'wrong-unit',
      message: expect.stringContaining('factor of 8'),
    });
    expect(gradeQuantity('14', 14, 'GB', 0.02)).toMatchObject({
      status: 'wrong-unit',
      message: expect.stringContaining('plain number'),
    });
  });
  it('grades values with tolerance and hints at GiB vs GB, factors of 2 and prefixes', () => {
    expect(gradeQuantity('14.2 GB', 14, 'GB', 0.02).status).toBe('correct');
    expect(gradeQuantity('15 GB', 14, 'GB', 0.02).status).toBe('wrong-value');
    expect(gradeQuantity('13.04 GiB', 14, 'GB', 0.005).status).toBe('correct');
    expect(gradeQuantity('14 GiB', 14, 'GB', 0.02).message).toContain('binary');
    expect(gradeQuantity('28 GB', 14, 'GB', 0.02).message).toContain('factor of 2');
    expect(gradeQuantity('14 MB', 14, 'GB', 0.02).message).toContain('prefix');
  });
  it('grades answers in bytes when the card says B', () => {
    for (const a of ['512 B', '512 bytes', '0.512 kB', '0.5 KiB'])
      expect(gradeQuantity(a, 512, 'B', 0.03), a).toMatchObject({ status: 'correct' });
  });
  it('asks instead of guessing when a lower-case unit could be bits or bytes, and rejects decimal commas', () => {
    expect(gradeQuantity('14 gb', 14, 'GB', 0.02)).toMatchObject({
      status: 'invalid',
      message: expect.stringContaining('GB for bytes'),
    });
    expect(gradeQuantity('1,5 GB', 1.5, 'GB', 0.02)).toMatchObject({
      status: 'invalid',
      message: expect.stringContaining('decimal comma'),
    });
    expect(gradeQuantity('1,500 MB', 1.5, 'GB', 0.02).status).toBe('correct');
  });
  it('handles times, bandwidths, ratios and counts', () => {
    expect(gradeQuantity('2500 us', 2.5, 'ms', 0.01).status).toBe('correct');
    expect(gradeQuantity('2.5e-3 s', 2.5, 'ms', 0.01).status).toBe('correct');
    expect(gradeQuantity('400 Gb/s', 50, 'GB/s', 0.01)).toMatchObject({ status: 'wrong-unit' });
    expect(gradeQuantity('1.5x', 1.5, 'x', 0.01).status).toBe('correct');
    expect(gradeQuantity('150%', 1.5, 'x', 0.01).status).toBe('correct');
    expect(gradeQuantity('7B', 7e9, '', 0.01).status).toBe('correct');
    expect(gradeQuantity('7 billion', 7e9, '', 0.01).status).toBe('correct');
    expect(gradeQuantity('14', 14, '', 0.01).status).toBe('correct');
  });
  it('turns malformed input into a clear message, never an exception', () => {
    for (const [a, msg] of [
      ['', 'Type an answer'],
      ['   ', 'Type an answer'],
      ['lots', 'does not start with a number'],
      ['14 bananas', 'unit "bananas"'],
      ['14 b', 'bits or bytes'],
      ['1e999 GB', 'finite'],
    ] as const)
      expect(gradeQuantity(a, 14, 'GB', 0.02), a).toMatchObject({
        status: 'invalid',
        message: expect.stringContaining(msg),
      });
  });
  it('parses to base units', () => {
    expect(parseQuantity('1 KiB').base).toBe(1024);
    expect(parseQuantity('3 MB').base).toBe(3e6);
    expect(parseQuantity('5 µs').base).toBeCloseTo(5e-6, 15);
  });
});

describe('gradeChoice', () => {
  const opts = [{ correct: true }, { correct: false }, { correct: true }];
  it('is correct only with exactly the right options', () => {
    expect(gradeChoice(opts, [0, 2]).status).toBe('correct');
    expect(gradeChoice(opts, [0])).toEqual({ status: 'wrong', missed: [2], wrong: [] });
    expect(gradeChoice(opts, [0, 1, 2])).toEqual({ status: 'wrong', missed: [], wrong: [1] });
    expect(gradeChoice(opts, []).status).toBe('invalid');
  });
});
