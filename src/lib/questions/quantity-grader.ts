/**
 * Grades a typed quantity ("14 GB", "1.4e10 bytes", "14000 MB", "2.5 ms") against the card's answer.
 * Values are converted to a base unit per dimension, so any spelling of the same quantity passes and
 * a quantity of the wrong kind (seconds for bytes, bits for bytes) is named as such.
 */
type Dimension = 'bytes' | 'bits' | 'seconds' | 'bytes/s' | 'bits/s' | 'ratio' | 'count';

interface Unit {
  dimension: Dimension;
  factor: number;
}

const UNITS: Record<string, Unit> = {};
const add = (names: string[], dimension: Dimension, factor: number) => {
  for (const n of names) UNITS[n] = { dimension, factor };
};
const decimal: [string, number][] = [
  ['', 1],
  ['k', 1e3],
  ['m', 1e6],
  ['g', 1e9],
  ['t', 1e12],
  ['p', 1e15],
];
const binary: [string, number][] = [
  ['ki', 2 ** 10],
  ['mi', 2 ** 20],
  ['gi', 2 ** 30],
  ['ti', 2 ** 40],
];
for (const [p, f] of decimal) {
  add([`${p}b`, ...(p ? [] : ['byte', 'bytes'])], 'bytes', f);
  if (p)
    add(
      [
        `${p}byte`,
        `${p}bytes`,
        `${({ k: 'kilo', m: 'mega', g: 'giga', t: 'tera', p: 'peta' } as Record<string, string>)[p]}bytes`,
      ],
      'bytes',
      f,
    );
  add([`${p}b/s`, `${p}bps`.replace(/^bps$/, 'b/s')], 'bytes/s', f);
  add([`${p}bit`, `${p}bits`], 'bits', f);
  add([`${p}bit/s`], 'bits/s', f);
}
for (const [p, f] of binary) {
  add([`${p}b`], 'bytes', f);
  add([`${p}b/s`], 'bytes/s', f);
}
add(['s', 'sec', 'secs', 'second', 'seconds'], 'seconds', 1);
add(['ms', 'millisecond', 'milliseconds'], 'seconds', 1e-3);
add(['us', 'µs', 'μs', 'microsecond', 'microseconds'], 'seconds', 1e-6);
add(['ns', 'nanosecond', 'nanoseconds'], 'seconds', 1e-9);
add(['min', 'minute', 'minutes'], 'seconds', 60);
add(['h', 'hour', 'hours'], 'seconds', 3600);
add(['x', '×', 'times'], 'ratio', 1);
add(['%', 'percent'], 'ratio', 0.01);
add(['', 'params', 'parameters', 'elements', 'steps', 'gpus', 'ranks'], 'count', 1);
add(['thousand'], 'count', 1e3);
add(['million'], 'count', 1e6);
add(['billion'], 'count', 1e9);
add(['trillion'], 'count', 1e12);

/** Case matters only to tell bits from bytes: "Gb" and "Mb" are gigabits and megabits, as on network specs. */
function lookUp(raw: string): Unit | undefined {
  const u = raw.trim().replace(/\s+/g, '');
  if (/^[KMGTP]b(\/s|ps)?$/.test(u)) {
    const f = ({ k: 1e3, m: 1e6, g: 1e9, t: 1e12, p: 1e15 } as Record<string, number>)[
      u[0]!.toLowerCase()
    ]!;
    return { dimension: u.endsWith('/s') || u.endsWith('ps') ? 'bits/s' : 'bits', factor: f };
  }
  if (u === 'b' || /^[kmgtp]b(\/s|ps)?$/.test(u)) return undefined; // lower-case b could be bits or bytes: ask for a clearer unit
  return UNITS[u.toLowerCase()];
}

const DIMENSION_NAME: Record<Dimension, string> = {
  bytes: 'an amount of memory (bytes)',
  bits: 'a number of bits',
  seconds: 'a time',
  'bytes/s': 'a bandwidth in bytes per second',
  'bits/s': 'a bandwidth in bits per second',
  ratio: 'a ratio',
  count: 'a plain number',
};

export interface Quantity {
  value: number;
  dimension: Dimension;
  base: number;
}

const NUMBER =
  /^([-+]?(?:\d[\d,_]*(?:\.\d*)?|\.\d+)(?:e[-+]?\d+)?)\s*(?:(?:×|x|\*)\s*10\^?\s*([-+]?\d+))?\s*(.*)$/i;
const SUFFIX: Record<string, number> = { k: 1e3, m: 1e6, b: 1e9, t: 1e12 };

/** Parses "1.4e10 bytes", "14 000 MB", "1.4 × 10^10 B", "7B params", "12.5%"; throws a reader-facing message otherwise. */
export function parseQuantity(input: string, expectedDimension?: Dimension): Quantity {
  const text = input.trim().replace(/(\d)[\s\u202f\u00a0](?=\d{3}\b)/g, '$1');
  if (!text) throw new Error('Type an answer first, a number with its unit (for example "14 GB").');
  if (/\d,(\d{1,2}|\d{4,})(?!\d)/.test(text))
    throw new Error(
      `"${input}" looks like it uses a decimal comma: write decimals with a dot, like "1.5 GB".`,
    );
  const m = NUMBER.exec(text);
  if (!m)
    throw new Error(
      `"${input}" does not start with a number. Write it like "14 GB", "1.4e10 bytes" or "2.5 ms".`,
    );
  let value = Number(m[1]!.replace(/[,_]/g, ''));
  if (m[2]) value *= 10 ** Number(m[2]);
  let unitText = m[3]!.trim();
  // "7B params" / "70B": a count suffix on a plain number when a count is expected.
  const countSuffix = /^([kKmMbBtT])(\s+(params|parameters))?$/.exec(unitText);
  if (countSuffix && expectedDimension === 'count') {
    value *= SUFFIX[countSuffix[1]!.toLowerCase()]!;
    unitText = '';
  }
  if (!Number.isFinite(value)) throw new Error(`"${input}" is not a finite number.`);
  const unit = lookUp(unitText);
  if (!unit) {
    if (/^[kmgtp]?b(\/s|ps)?$/.test(unitText))
      throw new Error(
        `"${unitText}" could be bits or bytes: write ${unitText.toUpperCase().replace('PS', '/s')} for bytes, or ${unitText.replace(/b/, 'bit')} for bits.`,
      );
    throw new Error(
      `I don't know the unit "${unitText}". Try B, kB, MB, GB, GiB, s, ms, µs, GB/s or a plain number.`,
    );
  }
  return { value, dimension: unit.dimension, base: value * unit.factor };
}

export type Verdict =
  | { status: 'correct'; message: string }
  | { status: 'wrong-unit'; message: string }
  | { status: 'wrong-value'; message: string }
  | { status: 'invalid'; message: string };

/** Compares an answer with `value unit`, within relative `tolerance`. */
export function gradeQuantity(
  answer: string,
  value: number,
  unit: string,
  tolerance: number,
): Verdict {
  const expected = parseQuantity(`${value} ${unit}`);
  let got: Quantity;
  try {
    got = parseQuantity(answer, expected.dimension);
  } catch (e) {
    return { status: 'invalid', message: (e as Error).message };
  }
  if (got.dimension !== expected.dimension) {
    const bitsBytes =
      [got.dimension, expected.dimension].sort().join() === ['bits', 'bytes'].sort().join() ||
      [got.dimension, expected.dimension].sort().join() === ['bits/s', 'bytes/s'].sort().join();
    const hint = bitsBytes ? ' Bits and bytes differ by a factor of 8: use B for bytes.' : '';
    return {
      status: 'wrong-unit',
      message: `Your answer is ${DIMENSION_NAME[got.dimension]}, but the question asks for ${DIMENSION_NAME[expected.dimension]}.${hint}`,
    };
  }
  const rel =
    expected.base === 0
      ? Math.abs(got.base)
      : Math.abs(got.base - expected.base) / Math.abs(expected.base);
  if (rel <= tolerance) return { status: 'correct', message: 'Correct.' };
  const ratio = expected.base === 0 ? Infinity : got.base / expected.base;
  const near = (r: number) => Math.abs(ratio / r - 1) <= tolerance;
  const hint =
    near(1.073741824) || near(1 / 1.073741824)
      ? ' Check decimal (GB = 10⁹ B) versus binary (GiB = 2³⁰ B) units.'
      : near(2) || near(0.5)
        ? ' You are off by a factor of 2.'
        : near(1000) || near(0.001) || near(1024) || near(1 / 1024)
          ? ' You are off by a unit prefix (a factor of about 1000).'
          : '';
  return {
    status: 'wrong-value',
    message: `Not quite: the right quantity is ${rel < 1 ? `within ${Math.ceil(rel * 100)} % of yours` : 'far from yours'}.${hint}`,
  };
}
