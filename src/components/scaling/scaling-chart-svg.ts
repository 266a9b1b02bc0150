/**
 * SVG markup for a throughput-versus-ranks chart (log₂ x axis and log y axis), shared by the
 * server render of the model curves and the client render of a measured run.
 */
export interface ChartSeries {
  name: string;
  /** CSS class that sets stroke colour and dash. */
  cls: string;
  points: { n: number; y: number }[];
}

const W = 520,
  H = 280,
  L = 64,
  R = 16,
  T = 16,
  B = 44;

/** Tick values 1, 2, 5 × 10^k covering [lo, hi]. */
function logTicks(lo: number, hi: number): number[] {
  const out: number[] = [];
  for (let k = Math.floor(Math.log10(lo)); k <= Math.ceil(Math.log10(hi)); k++)
    for (const m of [1, 2, 5]) out.push(m * 10 ** k);
  return out.filter((v) => v >= lo && v <= hi);
}

const fmtTick = (v: number) => (v >= 1000 ? `${+(v / 1000).toFixed(1)}k` : `${+v.toFixed(1)}`);

export function scalingChartSvg(
  series: ChartSeries[],
  opts: { label: string; yLabel: string },
): string {
  const ns = [...new Set(series.flatMap((s) => s.points.map((p) => p.n)))].sort((a, b) => a - b);
  const maxN = Math.max(2, ...ns);
  // Log–log axes: the ideal line is straight, and falling short of it shows as a bend.
  const ys = series.flatMap((s) => s.points.map((p) => p.y)).filter((v) => v > 0);
  const yMin = 10 ** Math.floor(Math.log10(Math.min(...ys) * 0.9)),
    yMax = 10 ** Math.ceil(Math.log10(Math.max(...ys) * 1.1));
  const x = (n: number) => L + (Math.log2(n) / Math.log2(maxN)) * (W - L - R);
  const y = (v: number) =>
    H - B - (Math.log(Math.max(v, yMin) / yMin) / Math.log(yMax / yMin)) * (H - T - B);
  const grid = logTicks(yMin, yMax)
    .map((v) => {
      return `<line x1="${L}" x2="${W - R}" y1="${y(v).toFixed(1)}" y2="${y(v).toFixed(1)}" class="sc-grid"/><text x="${L - 6}" y="${y(v).toFixed(1)}" class="sc-tick sc-tick-y">${fmtTick(v)}</text>`;
    })
    .join('');
  const xTicks = ns
    .map(
      (n) => `<text x="${x(n).toFixed(1)}" y="${H - B + 16}" class="sc-tick sc-tick-x">${n}</text>`,
    )
    .join('');
  const lines = series
    .map((s) => {
      const d = s.points
        .map((p, i) => `${i ? 'L' : 'M'}${x(p.n).toFixed(1)},${y(p.y).toFixed(1)}`)
        .join(' ');
      const dots = s.points
        .map(
          (p) =>
            `<circle cx="${x(p.n).toFixed(1)}" cy="${y(p.y).toFixed(1)}" r="3" class="sc-dot ${s.cls}"><title>${s.name}: ${p.n} ranks, ${fmtTick(p.y)}</title></circle>`,
        )
        .join('');
      return `<path d="${d}" class="sc-line ${s.cls}"/>${dots}`;
    })
    .join('');
  const axes =
    `<line x1="${L}" x2="${W - R}" y1="${H - B}" y2="${H - B}" class="sc-axis"/><line x1="${L}" x2="${L}" y1="${T}" y2="${H - B}" class="sc-axis"/>` +
    `<text x="${(L + W - R) / 2}" y="${H - 6}" class="sc-axis-label">ranks (log scale)</text>` +
    `<text x="14" y="${(T + H - B) / 2}" class="sc-axis-label" transform="rotate(-90 14 ${(T + H - B) / 2})">${opts.yLabel}</text>`;
  return `<svg viewBox="0 0 ${W} ${H}" role="img" aria-label="${opts.label}">${grid}${axes}${xTicks}${lines}</svg>`;
}
