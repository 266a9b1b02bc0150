/** Number formatting shared by chapters and widgets, so a page and its widget print the same digits. */

const trim = (s: string) => (s.includes('.') ? s.replace(/\.?0+$/, '') : s);

/** Decimal gigabytes (1 GB = 10⁹ B, as the ZeRO paper counts), at most `digits` decimals. */
export function fmtGB(bytes: number, digits = 1): string {
  return `${trim((bytes / 1e9).toFixed(digits))} GB`;
}

/** Bytes with a decimal unit picked to keep 1–3 integer digits. */
export function fmtBytes(bytes: number, digits = 1): string {
  const units: [number, string][] = [
    [1e12, 'TB'],
    [1e9, 'GB'],
    [1e6, 'MB'],
    [1e3, 'kB'],
  ];
  for (const [size, unit] of units)
    if (Math.abs(bytes) >= size) return `${trim((bytes / size).toFixed(digits))} ${unit}`;
  return `${trim(bytes.toFixed(0))} B`;
}

/** Binary mebibytes, the unit PyTorch's bucket_cap_mb actually means. */
export function fmtMiB(bytes: number, digits = 1): string {
  return `${trim((bytes / 2 ** 20).toFixed(digits))} MiB`;
}

/** Seconds with a unit (s, ms, µs) chosen for 1–3 integer digits. */
export function fmtSeconds(seconds: number, digits = 1): string {
  const a = Math.abs(seconds);
  if (a >= 1) return `${trim(seconds.toFixed(digits))} s`;
  if (a >= 1e-3) return `${trim((seconds * 1e3).toFixed(digits))} ms`;
  return `${trim((seconds * 1e6).toFixed(digits))} µs`;
}

/** Parameter counts as readers say them: 7.5B, 70B, 1.5B, 125M. */
export function fmtParams(n: number): string {
  if (n >= 1e12) return `${trim((n / 1e12).toFixed(2))}T`;
  if (n >= 1e9) return `${trim((n / 1e9).toFixed(2))}B`;
  if (n >= 1e6) return `${trim((n / 1e6).toFixed(2))}M`;
  if (n >= 1e3) return `${trim((n / 1e3).toFixed(2))}k`;
  return String(n);
}

export function fmtRatio(x: number, digits = 2): string {
  return `${trim(x.toFixed(digits))}×`;
}

export function fmtPercent(x: number, digits = 0): string {
  return `${trim((x * 100).toFixed(digits))} %`;
}

/** Integers with thin thousands separators (locale-independent, so server and client agree). */
export function fmtInt(n: number): string {
  return Math.round(n)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
