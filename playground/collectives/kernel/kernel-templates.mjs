// The reduction kernel's WebAssembly text, written once per shape and instantiated per op and dtype.
// build-kernel.mjs writes it to reduce.wat and compiles it; edit here, never in reduce.wat.

/** The ops and dtypes the kernel exports, in the order they appear (the contract's REDUCE_OPS minus avg). */
export const KERNEL_OPS = ['sum', 'prod', 'max', 'min'];
export const KERNEL_DTYPES = ['f32', 'i32'];

/** One op on one dtype: its SIMD instruction and how to combine two scalars `a` and `b` into the result. */
function opOf(op, t) {
  const lanes = `${t}x4`;
  const plain = { sum: 'add', prod: 'mul', max: 'max', min: 'min' }[op];
  // i32 has no scalar min/max instruction: select on a signed comparison (and SIMD needs the _s variant).
  const ordered = t === 'i32' && (op === 'max' || op === 'min');
  return {
    simd: `${lanes}.${ordered ? `${plain}_s` : plain}`,
    ordered,
    compare: op === 'max' ? 'i32.gt_s' : 'i32.lt_s',
    scalar: `${t}.${plain}`,
  };
}

/** dst[i] = dst[i] (op) src[i]: 16 elements per SIMD iteration, then a scalar tail. */
function binary(op, t) {
  const o = opOf(op, t);
  const vec = (off) =>
    `      (v128.store offset=${off} (local.get $dst) (${o.simd} (v128.load offset=${off} (local.get $dst)) (v128.load offset=${off} (local.get $src))))`;
  const tail = o.ordered
    ? [
        `      (local.set $a (${t}.load (local.get $dst)))`,
        `      (local.set $b (${t}.load (local.get $src)))`,
        `      (${t}.store (local.get $dst) (select (local.get $a) (local.get $b) (${o.compare} (local.get $a) (local.get $b))))`,
      ]
    : [
        `      (${t}.store (local.get $dst) (${o.scalar} (${t}.load (local.get $dst)) (${t}.load (local.get $src))))`,
      ];
  return [
    `  (func (export "${op}_${t}") (param $dst i32) (param $src i32) (param $len i32)`,
    `    (local $end i32) (local $vend i32)${o.ordered ? ` (local $a ${t}) (local $b ${t})` : ''}`,
    '    (local.set $end (i32.add (local.get $dst) (i32.shl (local.get $len) (i32.const 2))))',
    '    (local.set $vend (i32.add (local.get $dst) (i32.shl (i32.and (local.get $len) (i32.const -16)) (i32.const 2))))',
    '    (block $simd_done',
    '      (loop $simd',
    '        (br_if $simd_done (i32.ge_u (local.get $dst) (local.get $vend)))',
    ...[0, 16, 32, 48].map(vec),
    '        (local.set $dst (i32.add (local.get $dst) (i32.const 64)))',
    '        (local.set $src (i32.add (local.get $src) (i32.const 64)))',
    '        (br $simd)))',
    '    (block $tail_done',
    '      (loop $tail',
    '        (br_if $tail_done (i32.ge_u (local.get $dst) (local.get $end)))',
    ...tail,
    '        (local.set $dst (i32.add (local.get $dst) (i32.const 4)))',
    '        (local.set $src (i32.add (local.get $src) (i32.const 4)))',
    '        (br $tail))))',
  ].join('\n');
}

const regionK =
  '(i32.add (i32.load (i32.add (local.get $table) (i32.shl (local.get $k) (i32.const 2)))) (local.get $off))';
/** A loop of k over `from`..n−1 running `body`. */
const overRegions = (name, from, body, indent) => [
  `${indent}(local.set $k (i32.const ${from}))`,
  `${indent}(block $${name}_done`,
  `${indent}  (loop $${name}`,
  `${indent}    (br_if $${name}_done (i32.ge_u (local.get $k) (local.get $n)))`,
  ...body.map((l) => `${indent}    ${l}`),
  `${indent}    (local.set $k (i32.add (local.get $k) (i32.const 1)))`,
  `${indent}    (br $${name})))`,
];

/**
 * The fused two-shot step for one op and dtype (avg: sum, then divide by n): for each element of a chunk,
 * reduce across the n regions listed at $table and store the result back into all n, in one pass.
 */
function fused(op, t) {
  const avg = op === 'avg';
  const o = opOf(avg ? 'sum' : op, t);
  const accumulate = o.ordered
    ? [
        `(local.set $x (${t}.load (local.get $p)))`,
        `(local.set $acc (select (local.get $acc) (local.get $x) (${o.compare} (local.get $acc) (local.get $x))))`,
      ]
    : [`(local.set $acc (${o.scalar} (local.get $acc) (${t}.load (local.get $p))))`];
  return [
    `  (func (export "fused_${op}_${t}") (param $table i32) (param $n i32) (param $len i32)`,
    '    (local $off i32) (local $vend i32) (local $end i32) (local $k i32) (local $p i32)',
    `    (local $a v128) (local $b v128) (local $acc ${t}) (local $x i32)${avg ? ' (local $nv v128) (local $nf f32)' : ''}`,
    '    (local.set $end (i32.shl (local.get $len) (i32.const 2)))',
    '    (local.set $vend (i32.shl (i32.and (local.get $len) (i32.const -8)) (i32.const 2)))',
    ...(avg
      ? [
          '    (local.set $nf (f32.convert_i32_u (local.get $n)))',
          '    (local.set $nv (f32x4.splat (local.get $nf)))',
        ]
      : []),
    '    (block $simd_done',
    '      (loop $simd',
    '        (br_if $simd_done (i32.ge_u (local.get $off) (local.get $vend)))',
    '        (local.set $p (i32.add (i32.load (local.get $table)) (local.get $off)))',
    '        (local.set $a (v128.load (local.get $p)))',
    '        (local.set $b (v128.load offset=16 (local.get $p)))',
    ...overRegions(
      'red',
      1,
      [
        `(local.set $p ${regionK})`,
        `(local.set $a (${o.simd} (local.get $a) (v128.load (local.get $p))))`,
        `(local.set $b (${o.simd} (local.get $b) (v128.load offset=16 (local.get $p))))`,
      ],
      '        ',
    ),
    ...(avg
      ? [
          '        (local.set $a (f32x4.div (local.get $a) (local.get $nv)))',
          '        (local.set $b (f32x4.div (local.get $b) (local.get $nv)))',
        ]
      : []),
    ...overRegions(
      'st',
      0,
      [
        `(local.set $p ${regionK})`,
        '(v128.store (local.get $p) (local.get $a))',
        '(v128.store offset=16 (local.get $p) (local.get $b))',
      ],
      '        ',
    ),
    '        (local.set $off (i32.add (local.get $off) (i32.const 32)))',
    '        (br $simd)))',
    '    (block $tail_done',
    '      (loop $tail',
    '        (br_if $tail_done (i32.ge_u (local.get $off) (local.get $end)))',
    `        (local.set $acc (${t}.load (i32.add (i32.load (local.get $table)) (local.get $off))))`,
    ...overRegions('red', 1, [`(local.set $p ${regionK})`, ...accumulate], '        '),
    ...(avg ? ['        (local.set $acc (f32.div (local.get $acc) (local.get $nf)))'] : []),
    ...overRegions('st', 0, [`(${t}.store ${regionK} (local.get $acc))`], '        '),
    '        (local.set $off (i32.add (local.get $off) (i32.const 4)))',
    '        (br $tail))))',
  ].join('\n');
}

const DIVIDE_AND_COPY = {
  div_f32: `  ;; avg for float32: dst[i] /= n (a true division, so results match sum / n exactly).
  (func (export "div_f32") (param $dst i32) (param $len i32) (param $n f32)
    (local $end i32) (local $vend i32) (local $nv v128)
    (local.set $nv (f32x4.splat (local.get $n)))
    (local.set $end (i32.add (local.get $dst) (i32.shl (local.get $len) (i32.const 2))))
    (local.set $vend (i32.add (local.get $dst) (i32.shl (i32.and (local.get $len) (i32.const -4)) (i32.const 2))))
    (block $simd_done
      (loop $simd
        (br_if $simd_done (i32.ge_u (local.get $dst) (local.get $vend)))
        (v128.store (local.get $dst) (f32x4.div (v128.load (local.get $dst)) (local.get $nv)))
        (local.set $dst (i32.add (local.get $dst) (i32.const 16)))
        (br $simd)))
    (block $tail_done
      (loop $tail
        (br_if $tail_done (i32.ge_u (local.get $dst) (local.get $end)))
        (f32.store (local.get $dst) (f32.div (f32.load (local.get $dst)) (local.get $n)))
        (local.set $dst (i32.add (local.get $dst) (i32.const 4)))
        (br $tail))))`,
  div_i32: `  ;; avg for int32: truncating division, as integer averages are in NCCL (wasm has no SIMD integer divide).
  (func (export "div_i32") (param $dst i32) (param $len i32) (param $n i32)
    (local $end i32)
    (local.set $end (i32.add (local.get $dst) (i32.shl (local.get $len) (i32.const 2))))
    (block $done
      (loop $each
        (br_if $done (i32.ge_u (local.get $dst) (local.get $end)))
        (i32.store (local.get $dst) (i32.div_s (i32.load (local.get $dst)) (local.get $n)))
        (local.set $dst (i32.add (local.get $dst) (i32.const 4)))
        (br $each))))`,
  copy: `  ;; Copy len elements between regions (bulk memory: as fast as the engine's memmove, unlike a
  ;; TypedArray copyWithin on a SharedArrayBuffer, which some engines do element by element).
  (func (export "copy") (param $dst i32) (param $src i32) (param $len i32)
    (memory.copy (local.get $dst) (local.get $src) (i32.shl (local.get $len) (i32.const 2))))`,
};

/** The whole module's text. */
export function kernelWat() {
  const each = (make) => KERNEL_DTYPES.flatMap((t) => KERNEL_OPS.map((op) => make(op, t)));
  return `;; Generated by build-kernel.mjs from kernel-templates.mjs: do not edit by hand.
;; Element-wise reductions over the shared memory every rank maps: dst[i] = dst[i] (op) src[i].
;; Addresses are byte offsets, len counts 4-byte elements; 16 elements per SIMD iteration, then a scalar tail.
;; Compiled by build-kernel.mjs (wabt) into reduce-wasm.ts; nothing is compiled at run time.
(module
  (import "env" "memory" (memory 1 65536 shared))

${each(binary).join('\n\n')}

${DIVIDE_AND_COPY.div_f32}

${DIVIDE_AND_COPY.div_i32}

  ;; Fused two-shot step: for each element i of a chunk, reduce across the n regions listed at $table
  ;; (n byte addresses, one i32 each) and store the result back into all n, in one pass over memory.

${[...each(fused), fused('avg', 'f32')].join('\n\n')}

${DIVIDE_AND_COPY.copy}
)
`;
}
