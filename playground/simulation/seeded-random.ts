/** Deterministic numbers for jitter: the same seed, rank and index give the same value on any machine. */

/** A uniform number in [0, 1) from (seed, rank, index), by the splitmix32 finaliser. */
export function seededUnit(seed: number, rank: number, index: number): number {
  let h =
    (Math.imul(seed | 0, 0x9e3779b1) ^
      Math.imul(rank + 1, 0x85ebca6b) ^
      Math.imul(index + 1, 0xc2b2ae35)) >>>
    0;
  h = Math.imul(h ^ (h >>> 16), 0x21f0aaad) >>> 0;
  h = Math.imul(h ^ (h >>> 15), 0x735a2d97) >>> 0;
  h = (h ^ (h >>> 15)) >>> 0;
  return h / 2 ** 32;
}
