/**
 * Grades a typed answer ("14 GB", "4/3", "133 %", "1.33×", "2*(8-1)/8*26.2 GB", "2.5 GiB", "20 Gbit")
 * against the card's answer. mathjs evaluates the arithmetic and converts units (SI and binary
 * prefixes, bits and bytes), so any spelling of the same quantity passes; this file only rewrites
 * what people type into mathjs syntax and turns every failure into one reader-facing message.
 *
 * The page imports this module only when a reader presses Check: mathjs is ~90 KB gzip, too much to
 * ship before interaction (tests/e2e/site.spec.ts holds chapter pages to their JavaScript budget).
 */
import {
  addDependencies,
  create,
  divideDependencies,
  multiplyDependencies,
  parseDependencies,
  powDependencies,
  subtractDependencies,
  unaryMinusDependencies,
  unaryPlusDependencies,
  unitDependencies,
  type FactoryFunctionMap,
  type Unit,
} from 'mathjs';

// Only the parser, units and the five arithmetic operators: no functions, matrices or big numbers.
const math = create({
  parseDependencies,
  unitDependencies,
  addDependencies,
  subtractDependencies,
  multiplyDependencies,
  divideDependencies,
  powDependencies,
  unaryMinusDependencies,
  unaryPlusDependencies,
} as FactoryFunctionMap); // mathjs types each *Dependencies export as possibly undefined

export type Dimension = 'number' | 'bytes' | 'seconds' | 'bytes/s' | 'other';

const DIMENSION_NAME: Record<Dimension, string> = {
  number: 'a plain number (a count, ratio or percentage)',
  bytes: 'an amount of data (bytes)',
  seconds: 'a time',
  'bytes/s': 'a bandwidth (bytes per second)',
  other: 'a quantity of another kind',
};

/** The unit each dimension is compared in; mathjs counts information in bits, the book in bytes. */
const CANONICAL: Partial<Record<Dimension, string>> = {
  bytes: 'B',
  seconds: 's',
  'bytes/s': 'B/s',
};

export interface Quantity {
  /** The value in base units: bytes, seconds, bytes/s, or a plain number (a percentage as a fraction). */
  base: number;
  dimension: Dimension;
  /** The plain number typed, before a "%" turned it into a fraction (for percentage questions). */
  plain?: number;
}

/** Words a reader may put after a count; they carry no unit. */
const COUNT_NOUNS =
  /\b(params?|parameters?|elements?|steps?|gpus?|ranks?|tokens?|examples?|nodes?|workers?|times)\b/gi;
const SCALE_WORDS: Record<string, string> = {
  thousand: '1e3',
  million: '1e6',
  billion: '1e9',
  trillion: '1e12',
};

const ALLOWED_NODES = new Set(['ConstantNode', 'OperatorNode', 'ParenthesisNode', 'SymbolNode']);

class ReaderError extends Error {}

/** Rewrites what people type into mathjs syntax, or throws a ReaderError saying what to change. */
function normalise(input: string, wantsNumber: boolean): { expr: string; ratio: boolean } {
  let t = input
    .trim()
    .replace(/[\u2212\u2013]/g, '-') // minus sign, en dash
    .replace(/[·⋅∙]/g, '*')
    .replace(/÷/g, '/')
    .replace(/[µμ]/g, 'u')
    .replace(/[\u00a0\u202f\u2009]/g, ' ');
  if (!t)
    throw new ReaderError(
      'Type an answer first: a number, with its unit if it has one (for example "14 GB").',
    );
  if (/\d,(\d{1,2}|\d{4,})(?!\d)/.test(t))
    throw new ReaderError(
      `"${input}" looks like it uses a decimal comma: write decimals with a dot, like "1.5 GB".`,
    );
  // Thousands separators: "14,000 MB", "14 000 MB", "14_000".
  t = t.replace(/(\d)[ ,_](?=\d{3}(?!\d))/g, '$1');
  // "1.4 × 10^10", "2 x 3": × between two numbers multiplies.
  t = t.replace(/([\d.)])\s*[×xX]\s*(?=[\d(])/g, '$1*');
  // A trailing "×", "x" or "times" marks a ratio ("1.33×").
  let ratio = false;
  t = t.replace(/\s*(?:×|\bx|(?<=\d)x|\btimes)\s*$/i, () => {
    ratio = true;
    return '';
  });
  // Percentages: "133 %", "133 percent".
  t = t.replace(/([\d.)])\s*(?:%|percent\b)/gi, '$1 /100 ');
  for (const [word, factor] of Object.entries(SCALE_WORDS))
    t = t.replace(new RegExp(`\\b${word}\\b`, 'gi'), `* ${factor}`);
  // "7B", "70B params", "1.3M": a count suffix when the question asks for a plain number.
  if (wantsNumber) {
    const m = /^(.*[\d)])\s*([kKmMbBtT])(\s+(params?|parameters?))?$/.exec(t);
    if (m)
      t = `(${m[1]}) * ${({ k: '1e3', m: '1e6', b: '1e9', t: '1e12' } as Record<string, string>)[m[2]!.toLowerCase()]}`;
  }
  t = t.replace(COUNT_NOUNS, ' ');
  // Lower-case "gb", "mb", "b" could mean bits or bytes: ask instead of guessing.
  const ambiguous = /(?:^|[\d\s*/(])([kmgtp]?b)(\/s|ps)?(?![A-Za-z])/.exec(t);
  if (ambiguous) {
    const u = ambiguous[1]!;
    const prefix = u === 'kb' ? 'k' : u.slice(0, -1).toUpperCase();
    const perS = ambiguous[2] ? '/s' : '';
    throw new ReaderError(
      `"${u}${ambiguous[2] ?? ''}" could be bits or bytes: write ${prefix}B${perS} for bytes, or ${prefix}bit${perS} for bits.`,
    );
  }
  t = t
    .replace(/\b([kKMGTPE]i?)bits?\b/g, '$1b') // Gbit → Gb (mathjs: b is a bit)
    .replace(/\b([kKMGTPE]i?)[Bb]ytes?\b/g, '$1B') // GByte → GB
    .replace(/\b([kKMGTPE]i?)bps\b/g, '$1b/s')
    .replace(/\b([kKMGTPE]i?)Bps\b/g, '$1B/s')
    .replace(/\bbit\b/g, 'bits')
    .replace(/\bKB\b/g, 'kB') // a common spelling of kilobyte
    .replace(/\bKb\b/g, 'kb')
    .replace(/\bsecs?\b/g, 's')
    .replace(/\bhrs?\b/g, 'h')
    .replace(/\bmins\b/g, 'min');
  return { expr: t.trim(), ratio };
}

function dimensionOf(u: Unit): Dimension {
  for (const d of ['bytes', 'seconds', 'bytes/s'] as const)
    if (u.equalBase(math.unit(CANONICAL[d]!))) return d;
  return u.dimensions.every((x) => x === 0) ? 'number' : 'other';
}

/** Parses an answer to base units; throws a reader-facing message when it cannot. */
export function parseQuantity(input: string, expected?: Dimension): Quantity {
  const { expr, ratio } = normalise(input, expected === 'number');
  if (!expr)
    throw new ReaderError(`"${input}" has no number in it: write one, like "1.33" or "14 GB".`);
  let result: unknown;
  try {
    const node = math.parse(expr);
    // Numbers, units, operators and parentheses only: no assignments, functions or matrices.
    node.traverse((n) => {
      if (!ALLOWED_NODES.has(n.type)) throw new Error(`Unsupported ${n.type}`);
    });
    result = node.evaluate();
  } catch (e) {
    throw new ReaderError(explainParseError(input, (e as Error).message));
  }
  let q: Quantity;
  if (typeof result === 'number') q = { base: result, dimension: 'number' };
  else if (math.isUnit(result)) {
    const dimension = dimensionOf(result);
    if (dimension === 'other')
      throw new ReaderError(
        `"${input}" is in ${result.formatUnits() || 'a unit'}, which no question here uses: use bytes (B, GB, GiB, Gbit), seconds (s, ms, us) or a bandwidth (GB/s).`,
      );
    const canon = CANONICAL[dimension];
    q = { base: canon ? result.toNumber(canon) : result.toNumber(), dimension };
  } else
    throw new ReaderError(
      `"${input}" is not a single quantity: write one number, with its unit if it has one.`,
    );
  if (!Number.isFinite(q.base)) throw new ReaderError(`"${input}" is not a finite number.`);
  if (ratio && q.dimension !== 'number')
    throw new ReaderError(
      `"${input}" puts "×" after a unit: "×" marks a ratio, which has no unit.`,
    );
  if (q.dimension === 'number' && !/\/100\b/.test(expr)) q.plain = q.base;
  return q;
}

function explainParseError(input: string, message: string): string {
  const symbol = /Undefined symbol (\S+)/.exec(message)?.[1];
  if (symbol)
    return /^\d/.test(input.trim()) || /\d/.test(input)
      ? `I don't know the unit "${symbol}". Write bytes as B, kB, MB, GB or GiB, bits as Gbit, times as s, ms or us, bandwidths as GB/s; a ratio needs no unit.`
      : `"${input}" is not a number. Write a number (like "1.33", "4/3" or "133 %"), with its unit if it has one.`;
  if (/Undefined function|Unsupported FunctionNode/.test(message))
    return `"${input}" uses a function: only + − × / ^ and parentheses work here; compute the rest by hand.`;
  if (/Units do not match/.test(message))
    return `"${input}" adds or subtracts quantities of different kinds (like bytes and seconds).`;
  return `"${input}" is not a complete expression: check its parentheses and operators (for example "2*(8-1)/8*26.2 GB").`;
}

/** A common wrong answer and the misconception that produces it, written on the card. */
export interface Mistake {
  /** The wrong answer, in the exercise's unit. */
  value: number;
  /** What the reader most likely did, phrased to them. */
  why: string;
}

export type Verdict =
  | { status: 'correct'; message: string }
  | { status: 'wrong-unit'; message: string }
  | { status: 'wrong-value'; message: string; mistake?: number }
  | { status: 'invalid'; message: string };

function expectedQuantity(value: number, unit: string): Quantity {
  const u = unit.trim();
  if (u === '' || u === 'x' || u === '×' || u.replace(COUNT_NOUNS, '').trim() === '')
    return { base: value, dimension: 'number' };
  if (u === '%') return { base: value / 100, dimension: 'number' };
  return parseQuantity(`${value} ${u}`);
}

const times = (r: number) => `${r >= 10 ? Math.round(r) : Math.round(r * 10) / 10}×`;

const near = (got: number, want: number, tolerance: number) =>
  want === 0 ? Math.abs(got) <= tolerance : Math.abs(got - want) / Math.abs(want) <= tolerance;

/**
 * Compares an answer with `value unit` within relative `tolerance`. The card's known mistakes are
 * matched before the generic hints, so a reader is told what they most likely did, not only how far off.
 */
export function gradeQuantity(
  answer: string,
  value: number,
  unit: string,
  tolerance: number,
  mistakes: readonly Mistake[] = [],
): Verdict {
  const expected = expectedQuantity(value, unit);
  let got: Quantity;
  try {
    got = parseQuantity(answer, expected.dimension);
  } catch (e) {
    if (e instanceof ReaderError) return { status: 'invalid', message: e.message };
    throw e;
  }
  if (got.dimension !== expected.dimension) {
    const example = `${value} ${unit}`;
    return {
      status: 'wrong-unit',
      message:
        got.dimension === 'number'
          ? `The question asks for ${DIMENSION_NAME[expected.dimension]}: add the unit to your number (for example "${example}" has the right form).`
          : `Your answer is ${DIMENSION_NAME[got.dimension]}, but the question asks for ${DIMENSION_NAME[expected.dimension]}.`,
    };
  }
  // A percentage question also accepts "33.3" for 33.3 %, and a fraction such as "1/3".
  const percentPlain =
    unit.trim() === '%' && got.plain !== undefined && near(got.plain, value, tolerance);
  if (near(got.base, expected.base, tolerance) || percentPlain)
    return { status: 'correct', message: 'Correct.' };

  const mistakeBase = (m: Mistake) => expectedQuantity(m.value, unit).base;
  // A wrong answer is matched a little more loosely than a right one (at least 2 %): readers who
  // made the mistake rounded along the way.
  const slack = Math.max(tolerance, 0.02);
  const i = mistakes.findIndex(
    (m) =>
      near(got.base, mistakeBase(m), slack) ||
      (unit.trim() === '%' && got.plain !== undefined && near(got.plain, m.value, slack)),
  );
  if (i >= 0)
    return { status: 'wrong-value', message: `Not quite. ${mistakes[i]!.why}`, mistake: i };

  const ratio = expected.base === 0 ? Infinity : got.base / expected.base;
  const off = (r: number) => near(ratio, r, tolerance) || near(ratio, 1 / r, tolerance);
  const hint = off(1.073741824)
    ? ' Check decimal (GB = 10⁹ B) against binary (GiB = 2³⁰ B) units.'
    : off(8) && expected.dimension !== 'number'
      ? ' A byte is 8 bits: GB is bytes, Gb and Gbit are bits.'
      : off(100) && expected.dimension === 'number'
        ? ' Check how you wrote the percentage (33 % is 0.33).'
        : off(1000) || off(1024)
          ? ' Check the unit prefix.'
          : '';
  const size =
    ratio > 0.5 && ratio < 2
      ? `about ${Math.max(1, Math.round(Math.abs(ratio - 1) * 100))} % ${ratio > 1 ? 'too high' : 'too low'}`
      : ratio >= 2
        ? `about ${times(ratio)} too high`
        : ratio > 0
          ? `about ${times(1 / ratio)} too low`
          : 'of the wrong sign or zero';
  return { status: 'wrong-value', message: `Not quite: your answer is ${size}.${hint}` };
}
