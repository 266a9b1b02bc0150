/**
 * About `count` round tick values covering [lo, hi] (1, 2 or 5 times a power of ten apart). Always ends:
 * ticks are counted by index, never by adding the step to a value it is too small to change (0.1 + 0.2 and
 * 0.3 differ by 5.6e-17, below 0.3's own precision), and a range narrower than its numbers can resolve, or
 * too wide to subtract, gets just its two ends (issue 34, item 4).
 */
export function niceTicks(lo: number, hi: number, count = 5): number[] {
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) return [];
  if (lo === hi) return [lo];
  if (lo > hi) [lo, hi] = [hi, lo];
  const raw = (hi - lo) / count;
  if (!Number.isFinite(raw) || raw <= Math.max(Math.abs(lo), Math.abs(hi)) * 1e-12) return [lo, hi];
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw)!;
  const first = Math.ceil(lo / step);
  const last = Math.floor(hi / step + 1e-9);
  const ticks: number[] = [];
  for (let i = first; i <= last && ticks.length <= 2 * count + 2; i++)
    ticks.push(Number((i * step).toPrecision(12)));
  return ticks;
}
