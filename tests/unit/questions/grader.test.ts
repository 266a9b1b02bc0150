/**
 * The quantity grader over the answer forms people type: fractions, percentages, ×, arithmetic,
 * scientific notation, SI and binary prefixes, bits and bytes, wrong units and garbage. Each row
 * is [answer, card value, card unit, tolerance, expected status, text the message must contain].
 */
import { describe, expect, it } from 'vitest';
import { gradeQuantity, parseQuantity } from '../../../src/lib/questions/quantity-grader';
import { gradeChoice } from '../../../src/lib/questions/choice-grader';

type Status = 'correct' | 'wrong-unit' | 'wrong-value' | 'invalid';
type Row = [
  answer: string,
  value: number,
  unit: string,
  tolerance: number,
  status: Status,
  says?: string,
];

const ok = (value: number, unit: string, tol: number, answers: string[]): Row[] =>
  answers.map((a) => [a, value, unit, tol, 'correct']);

const ROWS: Row[] = [
  // The examples: a ratio of 4/3 (critical batch size) and a plain count (DiLoCo's 500).
  ...ok(1.333, 'x', 0.01, [
    '1.33',
    '4/3',
    '133 %',
    '133%',
    '1.33×',
    '1.33x',
    '1.33 x',
    '1.333',
    '4 / 3',
    '(4)/(3)',
    '2/1.5',
    '133.3 percent',
    '1.33 times',
    '+1.33',
    '1.3333333',
    '8/6',
    '1 + 1/3',
    '1.33e0',
    '13.3e-1',
    '0.5*8/3',
  ]),
  ...ok(500, '', 0.01, [
    '500',
    '5e2',
    '5 × 10^2',
    '5*10^2',
    '500 steps',
    '1000/2',
    '500.0',
    '0.5 thousand',
    '5E2',
    '500 ×',
  ]),
  ['1.33', 2, 'x', 0.01, 'wrong-value', 'too low'],
  ['4/3', 2, 'x', 0.01, 'wrong-value', 'too low'],
  ['133', 1.333, 'x', 0.01, 'wrong-value', 'percentage'],
  ['0.0133', 1.333, 'x', 0.01, 'wrong-value', 'percentage'],
  // Arithmetic, with and without units.
  ...ok(45.85, 'GB', 0.01, [
    '2*(8-1)/8*26.2 GB',
    '2*(8-1)/8*26.2GB',
    '2 * (8 - 1) / 8 * 26.2 GB',
    '(2*7/8)*26.2 GB',
    '1.75*26.2 GB',
    '45.85 GB',
    '45850 MB',
    '45.85e9 B',
    '45850000000 bytes',
    '42.7 GiB',
    '366.8 Gbit',
    '366.8 Gb',
    '0.04585 TB',
    '45.85 GByte',
    '45.85 gigabytes',
    '45,850 MB',
    '45 850 MB',
    '26.2 GB * 1.75',
    '26.2 GB + 19.65 GB',
    '52.4 GB - 6.55 GB',
  ]),
  ['2*(8-1)/8*26.2', 45.85, 'GB', 0.01, 'wrong-unit', 'add the unit'],
  ['2*(8-1)*26.2 GB', 45.85, 'GB', 0.01, 'wrong-value', 'too high'],
  ['(8-1)/8*26.2 GB', 45.85, 'GB', 0.01, 'wrong-value', '2× too low'],
  // Scientific notation.
  ...ok(1e9, '', 0.01, [
    '1e9',
    '1E9',
    '1e+9',
    '1.0e9',
    '10^9',
    '1 × 10^9',
    '1x10^9',
    '1*10^9',
    '1 billion',
    '1000 million',
    '1B',
    '1000M',
    '1,000,000,000',
    '1 000 000 000',
    '1e9 params',
    '1B params',
    '1000000000',
    '0.001e12',
    '1e3*1e6',
    '1 thousand million',
  ]),
  ['1e6', 1e9, '', 0.01, 'wrong-value', 'too low'],
  // Memory: SI and binary prefixes.
  ...ok(2.5, 'GB', 0.01, [
    '2.5 GB',
    '2.5GB',
    '2500 MB',
    '2500000 kB',
    '2500000 KB',
    '2.5e9 B',
    '2.5e9 bytes',
    '2.5 gigabytes',
    '0.0025 TB',
    '2.328 GiB',
    '2384 MiB',
    '20 Gbit',
    '20 Gb',
    '20e9 bits',
    '20000 Mbit',
    '2.5 × 10^9 B',
    '5/2 GB',
    '2.5 GByte',
    '2.5 gigabyte',
    '2,500 MB',
  ]),
  ...ok(2.684, 'GB', 0.01, [
    '2.5 GiB',
    '2560 MiB',
    '2621440 KiB',
    '2.5*2^30 B',
    '2.5 gibibytes',
    '2.684 GB',
    '2684 MB',
    '21.47 Gbit',
  ]),
  ...ok(80, 'GB', 0.01, [
    '80 GB',
    '80GB',
    '80000 MB',
    '8e10 B',
    '0.08 TB',
    '74.5 GiB',
    '640 Gbit',
    '80 gigabytes',
    '8*10 GB',
    '16 GB * 5',
  ]),
  ...ok(512, 'B', 0.03, [
    '512 B',
    '512 bytes',
    '0.512 kB',
    '0.5 KiB',
    '4096 bits',
    '4096 bit',
    '2^9 B',
    '512 byte',
  ]),
  ['14 GiB', 14, 'GB', 0.02, 'wrong-value', 'binary'],
  ['13.04 GiB', 14, 'GB', 0.005, 'correct'],
  ['14 Gbit', 14, 'GB', 0.02, 'wrong-value', '8 bits'],
  ['112 GB', 14, 'GB', 0.02, 'wrong-value', '8 bits'],
  ['28 GB', 14, 'GB', 0.02, 'wrong-value', '2× too high'],
  ['7 GB', 14, 'GB', 0.02, 'wrong-value', '2× too low'],
  ['14 MB', 14, 'GB', 0.02, 'wrong-value', 'prefix'],
  ['14 TB', 14, 'GB', 0.02, 'wrong-value', 'prefix'],
  ['15 GB', 14, 'GB', 0.02, 'wrong-value', '7 % too high'],
  ['13 GB', 14, 'GB', 0.02, 'wrong-value', '7 % too low'],
  ['14.2 GB', 14, 'GB', 0.02, 'correct'],
  // Times.
  ...ok(2.5, 'ms', 0.01, [
    '2.5 ms',
    '2500 us',
    '2500 µs',
    '2500 μs',
    '2.5e-3 s',
    '0.0025 s',
    '2500000 ns',
    '2.5 milliseconds',
    '0.0025 seconds',
    '0.0025 sec',
    '5/2 ms',
    '1 ms + 1.5 ms',
  ]),
  ...ok(3.09, 'h', 0.02, [
    '3.09 h',
    '3.09 hours',
    '185 min',
    '185.4 minutes',
    '11120 s',
    '54*24/419 h',
    '3.09 hr',
    '1296/419 h',
  ]),
  ['3.09', 3.09, 'h', 0.02, 'wrong-unit', 'a time'],
  ['3.09 GB', 3.09, 'h', 0.02, 'wrong-unit', 'a time'],
  // Bandwidths.
  ...ok(50, 'GB/s', 0.01, [
    '50 GB/s',
    '50GB/s',
    '400 Gb/s',
    '400 Gbit/s',
    '400 Gbps',
    '50 GBps',
    '50000 MB/s',
    '5e10 B/s',
    '46.57 GiB/s',
    '50 GB / s',
    '0.05 TB/s',
    '100 GB / 2 s',
  ]),
  ['50 GB', 50, 'GB/s', 0.01, 'wrong-unit', 'bandwidth'],
  ['50 Gb/s', 50, 'GB/s', 0.01, 'wrong-value', '8 bits'],
  // Percentages.
  ...ok(33.3, '%', 0.02, [
    '33.3 %',
    '33.3%',
    '33.3',
    '1/3',
    '0.333',
    '33 %',
    '100/3 %',
    '33.33 percent',
    '(4-3)/3',
    '1/3 * 100 %',
  ]),
  ...ok(47.44, '%', 0.02, ['47.44 %', '47.4', '0.4744', '47 %', '47.5%']),
  ['66.7 %', 33.3, '%', 0.02, 'wrong-value', '2× too high'],
  ['3.33', 33.3, '%', 0.02, 'wrong-value', '10×'],
  ['33.3 GB', 33.3, '%', 0.02, 'wrong-unit', 'plain number'],
  // Counts.
  ...ok(7e9, '', 0.01, [
    '7B',
    '7 B',
    '7B params',
    '7 billion',
    '7e9',
    '7000M',
    '7,000,000,000',
    '7 billion parameters',
    '7*10^9',
    '7000000000',
  ]),
  ...ok(30, 'steps', 0.001, ['30', '30 steps', '2*(16-1)', '2 × 15', '30.0']),
  ['254', 30, 'steps', 0.001, 'wrong-value', 'too high'],
  ['14', 14, '', 0.01, 'correct'],
  // Wrong units: a quantity of another kind is named, never graded as a value.
  ['14 ms', 14, 'GB', 0.02, 'wrong-unit', 'a time'],
  ['14 s', 14, 'GB', 0.02, 'wrong-unit', 'a time'],
  ['14 GB/s', 14, 'GB', 0.02, 'wrong-unit', 'bandwidth'],
  ['14', 14, 'GB', 0.02, 'wrong-unit', 'add the unit'],
  ['14 GB', 14, '', 0.02, 'wrong-unit', 'plain number'],
  ['1.33 GB', 1.333, 'x', 0.01, 'wrong-unit', 'plain number'],
  ['2.5 GB', 2.5, 'ms', 0.01, 'wrong-unit', 'a time'],
  ['2.5 ms', 2.5, 'GB', 0.01, 'wrong-unit', 'an amount of data'],
  ['50 GB', 50, 'GB/s', 0.01, 'wrong-unit', 'bandwidth'],
  ['1 h', 1, 'GB/s', 0.01, 'wrong-unit', 'a time'],
  ['14 m', 14, 'GB', 0.02, 'invalid', 'no question here uses'],
  ['14 kg', 14, 'GB', 0.02, 'invalid', 'no question here uses'],
  ['14 GB ×', 14, 'GB', 0.02, 'invalid', 'ratio'],
  // Ambiguous lower-case units: asked, not guessed.
  ['14 gb', 14, 'GB', 0.02, 'invalid', 'GB for bytes'],
  ['14 b', 14, 'GB', 0.02, 'invalid', 'bits or bytes'],
  ['14 mb', 14, 'GB', 0.02, 'invalid', 'MB for bytes'],
  ['14 kb', 14, 'GB', 0.02, 'invalid', 'kB for bytes'],
  ['14 tb', 14, 'GB', 0.02, 'invalid', 'TB for bytes'],
  ['50 gb/s', 50, 'GB/s', 0.02, 'invalid', 'GB/s for bytes'],
  ['50 gbps', 50, 'GB/s', 0.02, 'invalid', 'bits or bytes'],
  // Garbage and malformed input: one clear message, never an exception.
  ['', 14, 'GB', 0.02, 'invalid', 'Type an answer'],
  ['   ', 14, 'GB', 0.02, 'invalid', 'Type an answer'],
  ['lots', 14, 'GB', 0.02, 'invalid', 'not a number'],
  ['fourteen', 14, 'GB', 0.02, 'invalid', 'not a number'],
  ['GB', 14, 'GB', 0.02, 'wrong-value'],
  ['14 bananas', 14, 'GB', 0.02, 'invalid', 'unit "bananas"'],
  ['14 GB GB', 14, 'GB', 0.02, 'invalid'],
  ['1,5 GB', 1.5, 'GB', 0.02, 'invalid', 'decimal comma'],
  ['1,500 MB', 1.5, 'GB', 0.02, 'correct'],
  ['1e999 GB', 14, 'GB', 0.02, 'invalid', 'finite'],
  ['1/0', 14, '', 0.02, 'invalid', 'finite'],
  ['(3', 3, '', 0.01, 'invalid', 'complete expression'],
  ['3)', 3, '', 0.01, 'invalid', 'complete expression'],
  ['3 +', 3, '', 0.01, 'invalid', 'complete expression'],
  ['*3', 3, '', 0.01, 'invalid', 'complete expression'],
  ['sqrt(9)', 3, '', 0.01, 'invalid', 'function'],
  ['log(8)', 3, '', 0.01, 'invalid', 'function'],
  ['3 GB + 2 s', 14, 'GB', 0.02, 'invalid', 'different kinds'],
  ['[1, 2]', 1, '', 0.01, 'invalid'],
  ['x', 1, 'x', 0.01, 'invalid'],
  ['%', 1, '%', 0.01, 'invalid'],
  ['?', 1, '', 0.01, 'invalid'],
  ['<script>', 1, '', 0.01, 'invalid'],
  ['a = 3', 3, '', 0.01, 'invalid'],
  ['3; 4', 3, '', 0.01, 'invalid'],
  ['−3', -3, '', 0.01, 'correct'],
  ['-3', 3, '', 0.01, 'wrong-value', 'wrong sign'],
];

// Messages of each status say one thing; none may carry another status's words.
const FOREIGN: Record<Status, RegExp> = {
  correct: /not quite|don't know|asks for|too (high|low)/i,
  'wrong-unit': /correct|too (high|low)|don't know|not a number/i,
  'wrong-value': /^(?!Not quite)|asks for|don't know|not a number|Correct/,
  invalid: /^Correct|too (high|low)|asks for/,
};

describe('gradeQuantity', () => {
  it('has a table of at least 200 answer forms', () =>
    expect(ROWS.length).toBeGreaterThanOrEqual(200));

  it.each(ROWS)('%j for %s %s (±%s) is %s', (answer, value, unit, tolerance, status, says) => {
    const v = gradeQuantity(answer, value, unit, tolerance);
    expect(v.status).toBe(status);
    if (says) expect(v.message).toContain(says);
    expect(v.message).not.toMatch(FOREIGN[status]);
  });

  it('names a card mistake before the generic hints, and only for that wrong answer', () => {
    const mistakes = [{ value: 7, why: 'You forgot the 2 in 2(n−1)/n.' }];
    expect(gradeQuantity('7 GB', 14, 'GB', 0.02, mistakes)).toMatchObject({
      status: 'wrong-value',
      message: 'Not quite. You forgot the 2 in 2(n−1)/n.',
      mistake: 0,
    });
    expect(gradeQuantity('7000 MB', 14, 'GB', 0.02, mistakes).status).toBe('wrong-value');
    expect(gradeQuantity('14 GB', 14, 'GB', 0.02, mistakes).status).toBe('correct');
    expect(gradeQuantity('9 GB', 14, 'GB', 0.02, mistakes).message).not.toContain('forgot');
  });

  it('parses to base units', () => {
    expect(parseQuantity('1 KiB').base).toBe(1024);
    expect(parseQuantity('3 MB').base).toBe(3e6);
    expect(parseQuantity('8 Gbit').base).toBeCloseTo(1e9, 3);
    expect(parseQuantity('5 µs').base).toBeCloseTo(5e-6, 15);
    expect(parseQuantity('50 %').base).toBeCloseTo(0.5, 12);
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
