;; Element-wise reductions over the shared memory every rank maps: dst[i] = dst[i] (op) src[i].
;; Addresses are byte offsets, len counts 4-byte elements; 16 elements per SIMD iteration, then a scalar tail.
;; Compiled by build-kernel.mjs (wabt) into reduce-wasm.ts; nothing is compiled at run time.
(module
  (import "env" "memory" (memory 1 65536 shared))

  (func (export "sum_f32") (param $dst i32) (param $src i32) (param $len i32)
    (local $end i32) (local $vend i32)
    (local.set $end (i32.add (local.get $dst) (i32.shl (local.get $len) (i32.const 2))))
    (local.set $vend (i32.add (local.get $dst) (i32.shl (i32.and (local.get $len) (i32.const -16)) (i32.const 2))))
    (block $simd_done
      (loop $simd
        (br_if $simd_done (i32.ge_u (local.get $dst) (local.get $vend)))
      (v128.store offset=0 (local.get $dst) (f32x4.add (v128.load offset=0 (local.get $dst)) (v128.load offset=0 (local.get $src))))
      (v128.store offset=16 (local.get $dst) (f32x4.add (v128.load offset=16 (local.get $dst)) (v128.load offset=16 (local.get $src))))
      (v128.store offset=32 (local.get $dst) (f32x4.add (v128.load offset=32 (local.get $dst)) (v128.load offset=32 (local.get $src))))
      (v128.store offset=48 (local.get $dst) (f32x4.add (v128.load offset=48 (local.get $dst)) (v128.load offset=48 (local.get $src))))
        (local.set $dst (i32.add (local.get $dst) (i32.const 64)))
        (local.set $src (i32.add (local.get $src) (i32.const 64)))
        (br $simd)))
    (block $tail_done
      (loop $tail
        (br_if $tail_done (i32.ge_u (local.get $dst) (local.get $end)))
      (f32.store (local.get $dst) (f32.add (f32.load (local.get $dst)) (f32.load (local.get $src))))
        (local.set $dst (i32.add (local.get $dst) (i32.const 4)))
        (local.set $src (i32.add (local.get $src) (i32.const 4)))
        (br $tail))))

  (func (export "prod_f32") (param $dst i32) (param $src i32) (param $len i32)
    (local $end i32) (local $vend i32)
    (local.set $end (i32.add (local.get $dst) (i32.shl (local.get $len) (i32.const 2))))
    (local.set $vend (i32.add (local.get $dst) (i32.shl (i32.and (local.get $len) (i32.const -16)) (i32.const 2))))
    (block $simd_done
      (loop $simd
        (br_if $simd_done (i32.ge_u (local.get $dst) (local.get $vend)))
      (v128.store offset=0 (local.get $dst) (f32x4.mul (v128.load offset=0 (local.get $dst)) (v128.load offset=0 (local.get $src))))
      (v128.store offset=16 (local.get $dst) (f32x4.mul (v128.load offset=16 (local.get $dst)) (v128.load offset=16 (local.get $src))))
      (v128.store offset=32 (local.get $dst) (f32x4.mul (v128.load offset=32 (local.get $dst)) (v128.load offset=32 (local.get $src))))
      (v128.store offset=48 (local.get $dst) (f32x4.mul (v128.load offset=48 (local.get $dst)) (v128.load offset=48 (local.get $src))))
        (local.set $dst (i32.add (local.get $dst) (i32.const 64)))
        (local.set $src (i32.add (local.get $src) (i32.const 64)))
        (br $simd)))
    (block $tail_done
      (loop $tail
        (br_if $tail_done (i32.ge_u (local.get $dst) (local.get $end)))
      (f32.store (local.get $dst) (f32.mul (f32.load (local.get $dst)) (f32.load (local.get $src))))
        (local.set $dst (i32.add (local.get $dst) (i32.const 4)))
        (local.set $src (i32.add (local.get $src) (i32.const 4)))
        (br $tail))))

  (func (export "max_f32") (param $dst i32) (param $src i32) (param $len i32)
    (local $end i32) (local $vend i32)
    (local.set $end (i32.add (local.get $dst) (i32.shl (local.get $len) (i32.const 2))))
    (local.set $vend (i32.add (local.get $dst) (i32.shl (i32.and (local.get $len) (i32.const -16)) (i32.const 2))))
    (block $simd_done
      (loop $simd
        (br_if $simd_done (i32.ge_u (local.get $dst) (local.get $vend)))
      (v128.store offset=0 (local.get $dst) (f32x4.max (v128.load offset=0 (local.get $dst)) (v128.load offset=0 (local.get $src))))
      (v128.store offset=16 (local.get $dst) (f32x4.max (v128.load offset=16 (local.get $dst)) (v128.load offset=16 (local.get $src))))
      (v128.store offset=32 (local.get $dst) (f32x4.max (v128.load offset=32 (local.get $dst)) (v128.load offset=32 (local.get $src))))
      (v128.store offset=48 (local.get $dst) (f32x4.max (v128.load offset=48 (local.get $dst)) (v128.load offset=48 (local.get $src))))
        (local.set $dst (i32.add (local.get $dst) (i32.const 64)))
        (local.set $src (i32.add (local.get $src) (i32.const 64)))
        (br $simd)))
    (block $tail_done
      (loop $tail
        (br_if $tail_done (i32.ge_u (local.get $dst) (local.get $end)))
      (f32.store (local.get $dst) (f32.max (f32.load (local.get $dst)) (f32.load (local.get $src))))
        (local.set $dst (i32.add (local.get $dst) (i32.const 4)))
        (local.set $src (i32.add (local.get $src) (i32.const 4)))
        (br $tail))))

  (func (export "min_f32") (param $dst i32) (param $src i32) (param $len i32)
    (local $end i32) (local $vend i32)
    (local.set $end (i32.add (local.get $dst) (i32.shl (local.get $len) (i32.const 2))))
    (local.set $vend (i32.add (local.get $dst) (i32.shl (i32.and (local.get $len) (i32.const -16)) (i32.const 2))))
    (block $simd_done
      (loop $simd
        (br_if $simd_done (i32.ge_u (local.get $dst) (local.get $vend)))
      (v128.store offset=0 (local.get $dst) (f32x4.min (v128.load offset=0 (local.get $dst)) (v128.load offset=0 (local.get $src))))
      (v128.store offset=16 (local.get $dst) (f32x4.min (v128.load offset=16 (local.get $dst)) (v128.load offset=16 (local.get $src))))
      (v128.store offset=32 (local.get $dst) (f32x4.min (v128.load offset=32 (local.get $dst)) (v128.load offset=32 (local.get $src))))
      (v128.store offset=48 (local.get $dst) (f32x4.min (v128.load offset=48 (local.get $dst)) (v128.load offset=48 (local.get $src))))
        (local.set $dst (i32.add (local.get $dst) (i32.const 64)))
        (local.set $src (i32.add (local.get $src) (i32.const 64)))
        (br $simd)))
    (block $tail_done
      (loop $tail
        (br_if $tail_done (i32.ge_u (local.get $dst) (local.get $end)))
      (f32.store (local.get $dst) (f32.min (f32.load (local.get $dst)) (f32.load (local.get $src))))
        (local.set $dst (i32.add (local.get $dst) (i32.const 4)))
        (local.set $src (i32.add (local.get $src) (i32.const 4)))
        (br $tail))))

  (func (export "sum_i32") (param $dst i32) (param $src i32) (param $len i32)
    (local $end i32) (local $vend i32)
    (local.set $end (i32.add (local.get $dst) (i32.shl (local.get $len) (i32.const 2))))
    (local.set $vend (i32.add (local.get $dst) (i32.shl (i32.and (local.get $len) (i32.const -16)) (i32.const 2))))
    (block $simd_done
      (loop $simd
        (br_if $simd_done (i32.ge_u (local.get $dst) (local.get $vend)))
      (v128.store offset=0 (local.get $dst) (i32x4.add (v128.load offset=0 (local.get $dst)) (v128.load offset=0 (local.get $src))))
      (v128.store offset=16 (local.get $dst) (i32x4.add (v128.load offset=16 (local.get $dst)) (v128.load offset=16 (local.get $src))))
      (v128.store offset=32 (local.get $dst) (i32x4.add (v128.load offset=32 (local.get $dst)) (v128.load offset=32 (local.get $src))))
      (v128.store offset=48 (local.get $dst) (i32x4.add (v128.load offset=48 (local.get $dst)) (v128.load offset=48 (local.get $src))))
        (local.set $dst (i32.add (local.get $dst) (i32.const 64)))
        (local.set $src (i32.add (local.get $src) (i32.const 64)))
        (br $simd)))
    (block $tail_done
      (loop $tail
        (br_if $tail_done (i32.ge_u (local.get $dst) (local.get $end)))
      (i32.store (local.get $dst) (i32.add (i32.load (local.get $dst)) (i32.load (local.get $src))))
        (local.set $dst (i32.add (local.get $dst) (i32.const 4)))
        (local.set $src (i32.add (local.get $src) (i32.const 4)))
        (br $tail))))

  (func (export "prod_i32") (param $dst i32) (param $src i32) (param $len i32)
    (local $end i32) (local $vend i32)
    (local.set $end (i32.add (local.get $dst) (i32.shl (local.get $len) (i32.const 2))))
    (local.set $vend (i32.add (local.get $dst) (i32.shl (i32.and (local.get $len) (i32.const -16)) (i32.const 2))))
    (block $simd_done
      (loop $simd
        (br_if $simd_done (i32.ge_u (local.get $dst) (local.get $vend)))
      (v128.store offset=0 (local.get $dst) (i32x4.mul (v128.load offset=0 (local.get $dst)) (v128.load offset=0 (local.get $src))))
      (v128.store offset=16 (local.get $dst) (i32x4.mul (v128.load offset=16 (local.get $dst)) (v128.load offset=16 (local.get $src))))
      (v128.store offset=32 (local.get $dst) (i32x4.mul (v128.load offset=32 (local.get $dst)) (v128.load offset=32 (local.get $src))))
      (v128.store offset=48 (local.get $dst) (i32x4.mul (v128.load offset=48 (local.get $dst)) (v128.load offset=48 (local.get $src))))
        (local.set $dst (i32.add (local.get $dst) (i32.const 64)))
        (local.set $src (i32.add (local.get $src) (i32.const 64)))
        (br $simd)))
    (block $tail_done
      (loop $tail
        (br_if $tail_done (i32.ge_u (local.get $dst) (local.get $end)))
      (i32.store (local.get $dst) (i32.mul (i32.load (local.get $dst)) (i32.load (local.get $src))))
        (local.set $dst (i32.add (local.get $dst) (i32.const 4)))
        (local.set $src (i32.add (local.get $src) (i32.const 4)))
        (br $tail))))

  (func (export "max_i32") (param $dst i32) (param $src i32) (param $len i32)
    (local $end i32) (local $vend i32) (local $a i32) (local $b i32)
    (local.set $end (i32.add (local.get $dst) (i32.shl (local.get $len) (i32.const 2))))
    (local.set $vend (i32.add (local.get $dst) (i32.shl (i32.and (local.get $len) (i32.const -16)) (i32.const 2))))
    (block $simd_done
      (loop $simd
        (br_if $simd_done (i32.ge_u (local.get $dst) (local.get $vend)))
      (v128.store offset=0 (local.get $dst) (i32x4.max_s (v128.load offset=0 (local.get $dst)) (v128.load offset=0 (local.get $src))))
      (v128.store offset=16 (local.get $dst) (i32x4.max_s (v128.load offset=16 (local.get $dst)) (v128.load offset=16 (local.get $src))))
      (v128.store offset=32 (local.get $dst) (i32x4.max_s (v128.load offset=32 (local.get $dst)) (v128.load offset=32 (local.get $src))))
      (v128.store offset=48 (local.get $dst) (i32x4.max_s (v128.load offset=48 (local.get $dst)) (v128.load offset=48 (local.get $src))))
        (local.set $dst (i32.add (local.get $dst) (i32.const 64)))
        (local.set $src (i32.add (local.get $src) (i32.const 64)))
        (br $simd)))
    (block $tail_done
      (loop $tail
        (br_if $tail_done (i32.ge_u (local.get $dst) (local.get $end)))
      (local.set $a (i32.load (local.get $dst)))
      (local.set $b (i32.load (local.get $src)))
      (i32.store (local.get $dst) (select (local.get $a) (local.get $b) (i32.gt_s (local.get $a) (local.get $b))))
        (local.set $dst (i32.add (local.get $dst) (i32.const 4)))
        (local.set $src (i32.add (local.get $src) (i32.const 4)))
        (br $tail))))

  (func (export "min_i32") (param $dst i32) (param $src i32) (param $len i32)
    (local $end i32) (local $vend i32) (local $a i32) (local $b i32)
    (local.set $end (i32.add (local.get $dst) (i32.shl (local.get $len) (i32.const 2))))
    (local.set $vend (i32.add (local.get $dst) (i32.shl (i32.and (local.get $len) (i32.const -16)) (i32.const 2))))
    (block $simd_done
      (loop $simd
        (br_if $simd_done (i32.ge_u (local.get $dst) (local.get $vend)))
      (v128.store offset=0 (local.get $dst) (i32x4.min_s (v128.load offset=0 (local.get $dst)) (v128.load offset=0 (local.get $src))))
      (v128.store offset=16 (local.get $dst) (i32x4.min_s (v128.load offset=16 (local.get $dst)) (v128.load offset=16 (local.get $src))))
      (v128.store offset=32 (local.get $dst) (i32x4.min_s (v128.load offset=32 (local.get $dst)) (v128.load offset=32 (local.get $src))))
      (v128.store offset=48 (local.get $dst) (i32x4.min_s (v128.load offset=48 (local.get $dst)) (v128.load offset=48 (local.get $src))))
        (local.set $dst (i32.add (local.get $dst) (i32.const 64)))
        (local.set $src (i32.add (local.get $src) (i32.const 64)))
        (br $simd)))
    (block $tail_done
      (loop $tail
        (br_if $tail_done (i32.ge_u (local.get $dst) (local.get $end)))
      (local.set $a (i32.load (local.get $dst)))
      (local.set $b (i32.load (local.get $src)))
      (i32.store (local.get $dst) (select (local.get $a) (local.get $b) (i32.lt_s (local.get $a) (local.get $b))))
        (local.set $dst (i32.add (local.get $dst) (i32.const 4)))
        (local.set $src (i32.add (local.get $src) (i32.const 4)))
        (br $tail))))

  ;; avg for float32: dst[i] /= n (a true division, so results match sum / n exactly).
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
        (br $tail))))

  ;; avg for int32: truncating division, as integer averages are in NCCL (wasm has no SIMD integer divide).
  (func (export "div_i32") (param $dst i32) (param $len i32) (param $n i32)
    (local $end i32)
    (local.set $end (i32.add (local.get $dst) (i32.shl (local.get $len) (i32.const 2))))
    (block $done
      (loop $each
        (br_if $done (i32.ge_u (local.get $dst) (local.get $end)))
        (i32.store (local.get $dst) (i32.div_s (i32.load (local.get $dst)) (local.get $n)))
        (local.set $dst (i32.add (local.get $dst) (i32.const 4)))
        (br $each))))

  ;; Fused two-shot step: for each element i of a chunk, reduce across the n regions listed at $table
  ;; (n byte addresses, one i32 each) and store the result back into all n, in one pass over memory.

  (func (export "fused_sum_f32") (param $table i32) (param $n i32) (param $len i32)
    (local $off i32) (local $vend i32) (local $end i32) (local $k i32) (local $p i32)
    (local $a v128) (local $b v128) (local $acc f32) (local $x i32)
    (local.set $end (i32.shl (local.get $len) (i32.const 2)))
    (local.set $vend (i32.shl (i32.and (local.get $len) (i32.const -8)) (i32.const 2)))
    (block $simd_done
      (loop $simd
        (br_if $simd_done (i32.ge_u (local.get $off) (local.get $vend)))
        (local.set $p (i32.add (i32.load (local.get $table)) (local.get $off)))
        (local.set $a (v128.load (local.get $p)))
        (local.set $b (v128.load offset=16 (local.get $p)))
        (local.set $k (i32.const 1))
        (block $red_done
          (loop $red
            (br_if $red_done (i32.ge_u (local.get $k) (local.get $n)))
            (local.set $p (i32.add (i32.load (i32.add (local.get $table) (i32.shl (local.get $k) (i32.const 2)))) (local.get $off)))
            (local.set $a (f32x4.add (local.get $a) (v128.load (local.get $p))))
            (local.set $b (f32x4.add (local.get $b) (v128.load offset=16 (local.get $p))))
            (local.set $k (i32.add (local.get $k) (i32.const 1)))
            (br $red)))
        (local.set $k (i32.const 0))
        (block $st_done
          (loop $st
            (br_if $st_done (i32.ge_u (local.get $k) (local.get $n)))
            (local.set $p (i32.add (i32.load (i32.add (local.get $table) (i32.shl (local.get $k) (i32.const 2)))) (local.get $off)))
            (v128.store (local.get $p) (local.get $a))
            (v128.store offset=16 (local.get $p) (local.get $b))
            (local.set $k (i32.add (local.get $k) (i32.const 1)))
            (br $st)))
        (local.set $off (i32.add (local.get $off) (i32.const 32)))
        (br $simd)))
    (block $tail_done
      (loop $tail
        (br_if $tail_done (i32.ge_u (local.get $off) (local.get $end)))
        (local.set $acc (f32.load (i32.add (i32.load (local.get $table)) (local.get $off))))
        (local.set $k (i32.const 1))
        (block $red_done
          (loop $red
            (br_if $red_done (i32.ge_u (local.get $k) (local.get $n)))
            (local.set $p (i32.add (i32.load (i32.add (local.get $table) (i32.shl (local.get $k) (i32.const 2)))) (local.get $off)))
            (local.set $acc (f32.add (local.get $acc) (f32.load (local.get $p))))
            (local.set $k (i32.add (local.get $k) (i32.const 1)))
            (br $red)))
        (local.set $k (i32.const 0))
        (block $st_done
          (loop $st
            (br_if $st_done (i32.ge_u (local.get $k) (local.get $n)))
            (f32.store (i32.add (i32.load (i32.add (local.get $table) (i32.shl (local.get $k) (i32.const 2)))) (local.get $off)) (local.get $acc))
            (local.set $k (i32.add (local.get $k) (i32.const 1)))
            (br $st)))
        (local.set $off (i32.add (local.get $off) (i32.const 4)))
        (br $tail))))

  (func (export "fused_prod_f32") (param $table i32) (param $n i32) (param $len i32)
    (local $off i32) (local $vend i32) (local $end i32) (local $k i32) (local $p i32)
    (local $a v128) (local $b v128) (local $acc f32) (local $x i32)
    (local.set $end (i32.shl (local.get $len) (i32.const 2)))
    (local.set $vend (i32.shl (i32.and (local.get $len) (i32.const -8)) (i32.const 2)))
    (block $simd_done
      (loop $simd
        (br_if $simd_done (i32.ge_u (local.get $off) (local.get $vend)))
        (local.set $p (i32.add (i32.load (local.get $table)) (local.get $off)))
        (local.set $a (v128.load (local.get $p)))
        (local.set $b (v128.load offset=16 (local.get $p)))
        (local.set $k (i32.const 1))
        (block $red_done
          (loop $red
            (br_if $red_done (i32.ge_u (local.get $k) (local.get $n)))
            (local.set $p (i32.add (i32.load (i32.add (local.get $table) (i32.shl (local.get $k) (i32.const 2)))) (local.get $off)))
            (local.set $a (f32x4.mul (local.get $a) (v128.load (local.get $p))))
            (local.set $b (f32x4.mul (local.get $b) (v128.load offset=16 (local.get $p))))
            (local.set $k (i32.add (local.get $k) (i32.const 1)))
            (br $red)))
        (local.set $k (i32.const 0))
        (block $st_done
          (loop $st
            (br_if $st_done (i32.ge_u (local.get $k) (local.get $n)))
            (local.set $p (i32.add (i32.load (i32.add (local.get $table) (i32.shl (local.get $k) (i32.const 2)))) (local.get $off)))
            (v128.store (local.get $p) (local.get $a))
            (v128.store offset=16 (local.get $p) (local.get $b))
            (local.set $k (i32.add (local.get $k) (i32.const 1)))
            (br $st)))
        (local.set $off (i32.add (local.get $off) (i32.const 32)))
        (br $simd)))
    (block $tail_done
      (loop $tail
        (br_if $tail_done (i32.ge_u (local.get $off) (local.get $end)))
        (local.set $acc (f32.load (i32.add (i32.load (local.get $table)) (local.get $off))))
        (local.set $k (i32.const 1))
        (block $red_done
          (loop $red
            (br_if $red_done (i32.ge_u (local.get $k) (local.get $n)))
            (local.set $p (i32.add (i32.load (i32.add (local.get $table) (i32.shl (local.get $k) (i32.const 2)))) (local.get $off)))
            (local.set $acc (f32.mul (local.get $acc) (f32.load (local.get $p))))
            (local.set $k (i32.add (local.get $k) (i32.const 1)))
            (br $red)))
        (local.set $k (i32.const 0))
        (block $st_done
          (loop $st
            (br_if $st_done (i32.ge_u (local.get $k) (local.get $n)))
            (f32.store (i32.add (i32.load (i32.add (local.get $table) (i32.shl (local.get $k) (i32.const 2)))) (local.get $off)) (local.get $acc))
            (local.set $k (i32.add (local.get $k) (i32.const 1)))
            (br $st)))
        (local.set $off (i32.add (local.get $off) (i32.const 4)))
        (br $tail))))

  (func (export "fused_max_f32") (param $table i32) (param $n i32) (param $len i32)
    (local $off i32) (local $vend i32) (local $end i32) (local $k i32) (local $p i32)
    (local $a v128) (local $b v128) (local $acc f32) (local $x i32)
    (local.set $end (i32.shl (local.get $len) (i32.const 2)))
    (local.set $vend (i32.shl (i32.and (local.get $len) (i32.const -8)) (i32.const 2)))
    (block $simd_done
      (loop $simd
        (br_if $simd_done (i32.ge_u (local.get $off) (local.get $vend)))
        (local.set $p (i32.add (i32.load (local.get $table)) (local.get $off)))
        (local.set $a (v128.load (local.get $p)))
        (local.set $b (v128.load offset=16 (local.get $p)))
        (local.set $k (i32.const 1))
        (block $red_done
          (loop $red
            (br_if $red_done (i32.ge_u (local.get $k) (local.get $n)))
            (local.set $p (i32.add (i32.load (i32.add (local.get $table) (i32.shl (local.get $k) (i32.const 2)))) (local.get $off)))
            (local.set $a (f32x4.max (local.get $a) (v128.load (local.get $p))))
            (local.set $b (f32x4.max (local.get $b) (v128.load offset=16 (local.get $p))))
            (local.set $k (i32.add (local.get $k) (i32.const 1)))
            (br $red)))
        (local.set $k (i32.const 0))
        (block $st_done
          (loop $st
            (br_if $st_done (i32.ge_u (local.get $k) (local.get $n)))
            (local.set $p (i32.add (i32.load (i32.add (local.get $table) (i32.shl (local.get $k) (i32.const 2)))) (local.get $off)))
            (v128.store (local.get $p) (local.get $a))
            (v128.store offset=16 (local.get $p) (local.get $b))
            (local.set $k (i32.add (local.get $k) (i32.const 1)))
            (br $st)))
        (local.set $off (i32.add (local.get $off) (i32.const 32)))
        (br $simd)))
    (block $tail_done
      (loop $tail
        (br_if $tail_done (i32.ge_u (local.get $off) (local.get $end)))
        (local.set $acc (f32.load (i32.add (i32.load (local.get $table)) (local.get $off))))
        (local.set $k (i32.const 1))
        (block $red_done
          (loop $red
            (br_if $red_done (i32.ge_u (local.get $k) (local.get $n)))
            (local.set $p (i32.add (i32.load (i32.add (local.get $table) (i32.shl (local.get $k) (i32.const 2)))) (local.get $off)))
            (local.set $acc (f32.max (local.get $acc) (f32.load (local.get $p))))
            (local.set $k (i32.add (local.get $k) (i32.const 1)))
            (br $red)))
        (local.set $k (i32.const 0))
        (block $st_done
          (loop $st
            (br_if $st_done (i32.ge_u (local.get $k) (local.get $n)))
            (f32.store (i32.add (i32.load (i32.add (local.get $table) (i32.shl (local.get $k) (i32.const 2)))) (local.get $off)) (local.get $acc))
            (local.set $k (i32.add (local.get $k) (i32.const 1)))
            (br $st)))
        (local.set $off (i32.add (local.get $off) (i32.const 4)))
        (br $tail))))

  (func (export "fused_min_f32") (param $table i32) (param $n i32) (param $len i32)
    (local $off i32) (local $vend i32) (local $end i32) (local $k i32) (local $p i32)
    (local $a v128) (local $b v128) (local $acc f32) (local $x i32)
    (local.set $end (i32.shl (local.get $len) (i32.const 2)))
    (local.set $vend (i32.shl (i32.and (local.get $len) (i32.const -8)) (i32.const 2)))
    (block $simd_done
      (loop $simd
        (br_if $simd_done (i32.ge_u (local.get $off) (local.get $vend)))
        (local.set $p (i32.add (i32.load (local.get $table)) (local.get $off)))
        (local.set $a (v128.load (local.get $p)))
        (local.set $b (v128.load offset=16 (local.get $p)))
        (local.set $k (i32.const 1))
        (block $red_done
          (loop $red
            (br_if $red_done (i32.ge_u (local.get $k) (local.get $n)))
            (local.set $p (i32.add (i32.load (i32.add (local.get $table) (i32.shl (local.get $k) (i32.const 2)))) (local.get $off)))
            (local.set $a (f32x4.min (local.get $a) (v128.load (local.get $p))))
            (local.set $b (f32x4.min (local.get $b) (v128.load offset=16 (local.get $p))))
            (local.set $k (i32.add (local.get $k) (i32.const 1)))
            (br $red)))
        (local.set $k (i32.const 0))
        (block $st_done
          (loop $st
            (br_if $st_done (i32.ge_u (local.get $k) (local.get $n)))
            (local.set $p (i32.add (i32.load (i32.add (local.get $table) (i32.shl (local.get $k) (i32.const 2)))) (local.get $off)))
            (v128.store (local.get $p) (local.get $a))
            (v128.store offset=16 (local.get $p) (local.get $b))
            (local.set $k (i32.add (local.get $k) (i32.const 1)))
            (br $st)))
        (local.set $off (i32.add (local.get $off) (i32.const 32)))
        (br $simd)))
    (block $tail_done
      (loop $tail
        (br_if $tail_done (i32.ge_u (local.get $off) (local.get $end)))
        (local.set $acc (f32.load (i32.add (i32.load (local.get $table)) (local.get $off))))
        (local.set $k (i32.const 1))
        (block $red_done
          (loop $red
            (br_if $red_done (i32.ge_u (local.get $k) (local.get $n)))
            (local.set $p (i32.add (i32.load (i32.add (local.get $table) (i32.shl (local.get $k) (i32.const 2)))) (local.get $off)))
            (local.set $acc (f32.min (local.get $acc) (f32.load (local.get $p))))
            (local.set $k (i32.add (local.get $k) (i32.const 1)))
            (br $red)))
        (local.set $k (i32.const 0))
        (block $st_done
          (loop $st
            (br_if $st_done (i32.ge_u (local.get $k) (local.get $n)))
            (f32.store (i32.add (i32.load (i32.add (local.get $table) (i32.shl (local.get $k) (i32.const 2)))) (local.get $off)) (local.get $acc))
            (local.set $k (i32.add (local.get $k) (i32.const 1)))
            (br $st)))
        (local.set $off (i32.add (local.get $off) (i32.const 4)))
        (br $tail))))

  (func (export "fused_sum_i32") (param $table i32) (param $n i32) (param $len i32)
    (local $off i32) (local $vend i32) (local $end i32) (local $k i32) (local $p i32)
    (local $a v128) (local $b v128) (local $acc i32) (local $x i32)
    (local.set $end (i32.shl (local.get $len) (i32.const 2)))
    (local.set $vend (i32.shl (i32.and (local.get $len) (i32.const -8)) (i32.const 2)))
    (block $simd_done
      (loop $simd
        (br_if $simd_done (i32.ge_u (local.get $off) (local.get $vend)))
        (local.set $p (i32.add (i32.load (local.get $table)) (local.get $off)))
        (local.set $a (v128.load (local.get $p)))
        (local.set $b (v128.load offset=16 (local.get $p)))
        (local.set $k (i32.const 1))
        (block $red_done
          (loop $red
            (br_if $red_done (i32.ge_u (local.get $k) (local.get $n)))
            (local.set $p (i32.add (i32.load (i32.add (local.get $table) (i32.shl (local.get $k) (i32.const 2)))) (local.get $off)))
            (local.set $a (i32x4.add (local.get $a) (v128.load (local.get $p))))
            (local.set $b (i32x4.add (local.get $b) (v128.load offset=16 (local.get $p))))
            (local.set $k (i32.add (local.get $k) (i32.const 1)))
            (br $red)))
        (local.set $k (i32.const 0))
        (block $st_done
          (loop $st
            (br_if $st_done (i32.ge_u (local.get $k) (local.get $n)))
            (local.set $p (i32.add (i32.load (i32.add (local.get $table) (i32.shl (local.get $k) (i32.const 2)))) (local.get $off)))
            (v128.store (local.get $p) (local.get $a))
            (v128.store offset=16 (local.get $p) (local.get $b))
            (local.set $k (i32.add (local.get $k) (i32.const 1)))
            (br $st)))
        (local.set $off (i32.add (local.get $off) (i32.const 32)))
        (br $simd)))
    (block $tail_done
      (loop $tail
        (br_if $tail_done (i32.ge_u (local.get $off) (local.get $end)))
        (local.set $acc (i32.load (i32.add (i32.load (local.get $table)) (local.get $off))))
        (local.set $k (i32.const 1))
        (block $red_done
          (loop $red
            (br_if $red_done (i32.ge_u (local.get $k) (local.get $n)))
            (local.set $p (i32.add (i32.load (i32.add (local.get $table) (i32.shl (local.get $k) (i32.const 2)))) (local.get $off)))
            (local.set $acc (i32.add (local.get $acc) (i32.load (local.get $p))))
            (local.set $k (i32.add (local.get $k) (i32.const 1)))
            (br $red)))
        (local.set $k (i32.const 0))
        (block $st_done
          (loop $st
            (br_if $st_done (i32.ge_u (local.get $k) (local.get $n)))
            (i32.store (i32.add (i32.load (i32.add (local.get $table) (i32.shl (local.get $k) (i32.const 2)))) (local.get $off)) (local.get $acc))
            (local.set $k (i32.add (local.get $k) (i32.const 1)))
            (br $st)))
        (local.set $off (i32.add (local.get $off) (i32.const 4)))
        (br $tail))))

  (func (export "fused_prod_i32") (param $table i32) (param $n i32) (param $len i32)
    (local $off i32) (local $vend i32) (local $end i32) (local $k i32) (local $p i32)
    (local $a v128) (local $b v128) (local $acc i32) (local $x i32)
    (local.set $end (i32.shl (local.get $len) (i32.const 2)))
    (local.set $vend (i32.shl (i32.and (local.get $len) (i32.const -8)) (i32.const 2)))
    (block $simd_done
      (loop $simd
        (br_if $simd_done (i32.ge_u (local.get $off) (local.get $vend)))
        (local.set $p (i32.add (i32.load (local.get $table)) (local.get $off)))
        (local.set $a (v128.load (local.get $p)))
        (local.set $b (v128.load offset=16 (local.get $p)))
        (local.set $k (i32.const 1))
        (block $red_done
          (loop $red
            (br_if $red_done (i32.ge_u (local.get $k) (local.get $n)))
            (local.set $p (i32.add (i32.load (i32.add (local.get $table) (i32.shl (local.get $k) (i32.const 2)))) (local.get $off)))
            (local.set $a (i32x4.mul (local.get $a) (v128.load (local.get $p))))
            (local.set $b (i32x4.mul (local.get $b) (v128.load offset=16 (local.get $p))))
            (local.set $k (i32.add (local.get $k) (i32.const 1)))
            (br $red)))
        (local.set $k (i32.const 0))
        (block $st_done
          (loop $st
            (br_if $st_done (i32.ge_u (local.get $k) (local.get $n)))
            (local.set $p (i32.add (i32.load (i32.add (local.get $table) (i32.shl (local.get $k) (i32.const 2)))) (local.get $off)))
            (v128.store (local.get $p) (local.get $a))
            (v128.store offset=16 (local.get $p) (local.get $b))
            (local.set $k (i32.add (local.get $k) (i32.const 1)))
            (br $st)))
        (local.set $off (i32.add (local.get $off) (i32.const 32)))
        (br $simd)))
    (block $tail_done
      (loop $tail
        (br_if $tail_done (i32.ge_u (local.get $off) (local.get $end)))
        (local.set $acc (i32.load (i32.add (i32.load (local.get $table)) (local.get $off))))
        (local.set $k (i32.const 1))
        (block $red_done
          (loop $red
            (br_if $red_done (i32.ge_u (local.get $k) (local.get $n)))
            (local.set $p (i32.add (i32.load (i32.add (local.get $table) (i32.shl (local.get $k) (i32.const 2)))) (local.get $off)))
            (local.set $acc (i32.mul (local.get $acc) (i32.load (local.get $p))))
            (local.set $k (i32.add (local.get $k) (i32.const 1)))
            (br $red)))
        (local.set $k (i32.const 0))
        (block $st_done
          (loop $st
            (br_if $st_done (i32.ge_u (local.get $k) (local.get $n)))
            (i32.store (i32.add (i32.load (i32.add (local.get $table) (i32.shl (local.get $k) (i32.const 2)))) (local.get $off)) (local.get $acc))
            (local.set $k (i32.add (local.get $k) (i32.const 1)))
            (br $st)))
        (local.set $off (i32.add (local.get $off) (i32.const 4)))
        (br $tail))))

  (func (export "fused_max_i32") (param $table i32) (param $n i32) (param $len i32)
    (local $off i32) (local $vend i32) (local $end i32) (local $k i32) (local $p i32)
    (local $a v128) (local $b v128) (local $acc i32) (local $x i32)
    (local.set $end (i32.shl (local.get $len) (i32.const 2)))
    (local.set $vend (i32.shl (i32.and (local.get $len) (i32.const -8)) (i32.const 2)))
    (block $simd_done
      (loop $simd
        (br_if $simd_done (i32.ge_u (local.get $off) (local.get $vend)))
        (local.set $p (i32.add (i32.load (local.get $table)) (local.get $off)))
        (local.set $a (v128.load (local.get $p)))
        (local.set $b (v128.load offset=16 (local.get $p)))
        (local.set $k (i32.const 1))
        (block $red_done
          (loop $red
            (br_if $red_done (i32.ge_u (local.get $k) (local.get $n)))
            (local.set $p (i32.add (i32.load (i32.add (local.get $table) (i32.shl (local.get $k) (i32.const 2)))) (local.get $off)))
            (local.set $a (i32x4.max_s (local.get $a) (v128.load (local.get $p))))
            (local.set $b (i32x4.max_s (local.get $b) (v128.load offset=16 (local.get $p))))
            (local.set $k (i32.add (local.get $k) (i32.const 1)))
            (br $red)))
        (local.set $k (i32.const 0))
        (block $st_done
          (loop $st
            (br_if $st_done (i32.ge_u (local.get $k) (local.get $n)))
            (local.set $p (i32.add (i32.load (i32.add (local.get $table) (i32.shl (local.get $k) (i32.const 2)))) (local.get $off)))
            (v128.store (local.get $p) (local.get $a))
            (v128.store offset=16 (local.get $p) (local.get $b))
            (local.set $k (i32.add (local.get $k) (i32.const 1)))
            (br $st)))
        (local.set $off (i32.add (local.get $off) (i32.const 32)))
        (br $simd)))
    (block $tail_done
      (loop $tail
        (br_if $tail_done (i32.ge_u (local.get $off) (local.get $end)))
        (local.set $acc (i32.load (i32.add (i32.load (local.get $table)) (local.get $off))))
        (local.set $k (i32.const 1))
        (block $red_done
          (loop $red
            (br_if $red_done (i32.ge_u (local.get $k) (local.get $n)))
            (local.set $p (i32.add (i32.load (i32.add (local.get $table) (i32.shl (local.get $k) (i32.const 2)))) (local.get $off)))
            (local.set $x (i32.load (local.get $p)))
            (local.set $acc (select (local.get $acc) (local.get $x) (i32.gt_s (local.get $acc) (local.get $x))))
            (local.set $k (i32.add (local.get $k) (i32.const 1)))
            (br $red)))
        (local.set $k (i32.const 0))
        (block $st_done
          (loop $st
            (br_if $st_done (i32.ge_u (local.get $k) (local.get $n)))
            (i32.store (i32.add (i32.load (i32.add (local.get $table) (i32.shl (local.get $k) (i32.const 2)))) (local.get $off)) (local.get $acc))
            (local.set $k (i32.add (local.get $k) (i32.const 1)))
            (br $st)))
        (local.set $off (i32.add (local.get $off) (i32.const 4)))
        (br $tail))))

  (func (export "fused_min_i32") (param $table i32) (param $n i32) (param $len i32)
    (local $off i32) (local $vend i32) (local $end i32) (local $k i32) (local $p i32)
    (local $a v128) (local $b v128) (local $acc i32) (local $x i32)
    (local.set $end (i32.shl (local.get $len) (i32.const 2)))
    (local.set $vend (i32.shl (i32.and (local.get $len) (i32.const -8)) (i32.const 2)))
    (block $simd_done
      (loop $simd
        (br_if $simd_done (i32.ge_u (local.get $off) (local.get $vend)))
        (local.set $p (i32.add (i32.load (local.get $table)) (local.get $off)))
        (local.set $a (v128.load (local.get $p)))
        (local.set $b (v128.load offset=16 (local.get $p)))
        (local.set $k (i32.const 1))
        (block $red_done
          (loop $red
            (br_if $red_done (i32.ge_u (local.get $k) (local.get $n)))
            (local.set $p (i32.add (i32.load (i32.add (local.get $table) (i32.shl (local.get $k) (i32.const 2)))) (local.get $off)))
            (local.set $a (i32x4.min_s (local.get $a) (v128.load (local.get $p))))
            (local.set $b (i32x4.min_s (local.get $b) (v128.load offset=16 (local.get $p))))
            (local.set $k (i32.add (local.get $k) (i32.const 1)))
            (br $red)))
        (local.set $k (i32.const 0))
        (block $st_done
          (loop $st
            (br_if $st_done (i32.ge_u (local.get $k) (local.get $n)))
            (local.set $p (i32.add (i32.load (i32.add (local.get $table) (i32.shl (local.get $k) (i32.const 2)))) (local.get $off)))
            (v128.store (local.get $p) (local.get $a))
            (v128.store offset=16 (local.get $p) (local.get $b))
            (local.set $k (i32.add (local.get $k) (i32.const 1)))
            (br $st)))
        (local.set $off (i32.add (local.get $off) (i32.const 32)))
        (br $simd)))
    (block $tail_done
      (loop $tail
        (br_if $tail_done (i32.ge_u (local.get $off) (local.get $end)))
        (local.set $acc (i32.load (i32.add (i32.load (local.get $table)) (local.get $off))))
        (local.set $k (i32.const 1))
        (block $red_done
          (loop $red
            (br_if $red_done (i32.ge_u (local.get $k) (local.get $n)))
            (local.set $p (i32.add (i32.load (i32.add (local.get $table) (i32.shl (local.get $k) (i32.const 2)))) (local.get $off)))
            (local.set $x (i32.load (local.get $p)))
            (local.set $acc (select (local.get $acc) (local.get $x) (i32.lt_s (local.get $acc) (local.get $x))))
            (local.set $k (i32.add (local.get $k) (i32.const 1)))
            (br $red)))
        (local.set $k (i32.const 0))
        (block $st_done
          (loop $st
            (br_if $st_done (i32.ge_u (local.get $k) (local.get $n)))
            (i32.store (i32.add (i32.load (i32.add (local.get $table) (i32.shl (local.get $k) (i32.const 2)))) (local.get $off)) (local.get $acc))
            (local.set $k (i32.add (local.get $k) (i32.const 1)))
            (br $st)))
        (local.set $off (i32.add (local.get $off) (i32.const 4)))
        (br $tail))))

  (func (export "fused_avg_f32") (param $table i32) (param $n i32) (param $len i32)
    (local $off i32) (local $vend i32) (local $end i32) (local $k i32) (local $p i32)
    (local $a v128) (local $b v128) (local $acc f32) (local $x i32) (local $nv v128) (local $nf f32)
    (local.set $end (i32.shl (local.get $len) (i32.const 2)))
    (local.set $vend (i32.shl (i32.and (local.get $len) (i32.const -8)) (i32.const 2)))
    (local.set $nf (f32.convert_i32_u (local.get $n)))
    (local.set $nv (f32x4.splat (local.get $nf)))
    (block $simd_done
      (loop $simd
        (br_if $simd_done (i32.ge_u (local.get $off) (local.get $vend)))
        (local.set $p (i32.add (i32.load (local.get $table)) (local.get $off)))
        (local.set $a (v128.load (local.get $p)))
        (local.set $b (v128.load offset=16 (local.get $p)))
        (local.set $k (i32.const 1))
        (block $red_done
          (loop $red
            (br_if $red_done (i32.ge_u (local.get $k) (local.get $n)))
            (local.set $p (i32.add (i32.load (i32.add (local.get $table) (i32.shl (local.get $k) (i32.const 2)))) (local.get $off)))
            (local.set $a (f32x4.add (local.get $a) (v128.load (local.get $p))))
            (local.set $b (f32x4.add (local.get $b) (v128.load offset=16 (local.get $p))))
            (local.set $k (i32.add (local.get $k) (i32.const 1)))
            (br $red)))
        (local.set $a (f32x4.div (local.get $a) (local.get $nv)))
        (local.set $b (f32x4.div (local.get $b) (local.get $nv)))
        (local.set $k (i32.const 0))
        (block $st_done
          (loop $st
            (br_if $st_done (i32.ge_u (local.get $k) (local.get $n)))
            (local.set $p (i32.add (i32.load (i32.add (local.get $table) (i32.shl (local.get $k) (i32.const 2)))) (local.get $off)))
            (v128.store (local.get $p) (local.get $a))
            (v128.store offset=16 (local.get $p) (local.get $b))
            (local.set $k (i32.add (local.get $k) (i32.const 1)))
            (br $st)))
        (local.set $off (i32.add (local.get $off) (i32.const 32)))
        (br $simd)))
    (block $tail_done
      (loop $tail
        (br_if $tail_done (i32.ge_u (local.get $off) (local.get $end)))
        (local.set $acc (f32.load (i32.add (i32.load (local.get $table)) (local.get $off))))
        (local.set $k (i32.const 1))
        (block $red_done
          (loop $red
            (br_if $red_done (i32.ge_u (local.get $k) (local.get $n)))
            (local.set $p (i32.add (i32.load (i32.add (local.get $table) (i32.shl (local.get $k) (i32.const 2)))) (local.get $off)))
            (local.set $acc (f32.add (local.get $acc) (f32.load (local.get $p))))
            (local.set $k (i32.add (local.get $k) (i32.const 1)))
            (br $red)))
        (local.set $acc (f32.div (local.get $acc) (local.get $nf)))
        (local.set $k (i32.const 0))
        (block $st_done
          (loop $st
            (br_if $st_done (i32.ge_u (local.get $k) (local.get $n)))
            (f32.store (i32.add (i32.load (i32.add (local.get $table) (i32.shl (local.get $k) (i32.const 2)))) (local.get $off)) (local.get $acc))
            (local.set $k (i32.add (local.get $k) (i32.const 1)))
            (br $st)))
        (local.set $off (i32.add (local.get $off) (i32.const 4)))
        (br $tail))))

  ;; Copy len elements between regions (bulk memory: as fast as the engine's memmove, unlike a
  ;; TypedArray copyWithin on a SharedArrayBuffer, which some engines do element by element).
  (func (export "copy") (param $dst i32) (param $src i32) (param $len i32)
    (memory.copy (local.get $dst) (local.get $src) (i32.shl (local.get $len) (i32.const 2))))
)
