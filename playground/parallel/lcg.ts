/**
 * The 32-bit linear congruential generator shared with the PyTorch twin (tests/reference/mlp_twin.py).
 * Every value it yields is k / 2^23 - 1 for an integer k, so it is exact in float32 and both languages agree bit for bit.
 */
export class Lcg {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** Next value in [-1, 1). */
  next(): number {
    this.state = (Math.imul(this.state, 1664525) + 1013904223) >>> 0;
    return ((this.state >>> 8) / 16777216) * 2 - 1;
  }

  /** `n` values scaled by `scale`, in generation order. */
  fill(n: number, scale = 1): Float32Array {
    const out = new Float32Array(n);
    for (let i = 0; i < n; i++) out[i] = this.next() * scale;
    return out;
  }
}
