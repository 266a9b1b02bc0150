/**
 * Geometry for the lab's calibration plot: busbw against size, log-log, measured points and the
 * model's curve per published sweep. Pure numbers in, SVG coordinates out, computed at build time.
 */
export interface PlotPoint {
  bytes: number;
  busbw: number;
  /** A measured point in the calibration's not-modelled list (drawn hollow). */
  notModelled?: boolean;
}

export interface SweepPanel {
  id: string;
  title: string;
  split: string;
  measured: PlotPoint[];
  predicted: PlotPoint[];
}

export interface PanelGeometry {
  width: number;
  height: number;
  measured: { x: number; y: number; label: string; notModelled: boolean }[];
  predictedPath: string;
  xTicks: { x: number; label: string }[];
  yTicks: { y: number; label: string }[];
  plot: { left: number; top: number; right: number; bottom: number };
}

const SIZE_LABEL = (b: number) =>
  b >= 2 ** 30
    ? `${b / 2 ** 30}G`
    : b >= 2 ** 20
      ? `${b / 2 ** 20}M`
      : b >= 1024
        ? `${b / 1024}K`
        : `${b}`;

/** Log-log axes over the panel's sizes and busbw (floored at 0.01 GB/s, where nccl-tests prints 0.00). */
export function panelGeometry(p: SweepPanel, width = 560, height = 300): PanelGeometry {
  const plot = { left: 56, top: 12, right: width - 12, bottom: height - 40 };
  const all = [...p.measured, ...p.predicted];
  const lx = all.map((q) => Math.log2(q.bytes));
  const floor = 0.01;
  const ly = all.map((q) => Math.log10(Math.max(floor, q.busbw)));
  const [x0, x1] = [Math.min(...lx), Math.max(...lx)];
  const [y0, y1] = [Math.floor(Math.min(...ly)), Math.ceil(Math.max(...ly))];
  const sx = (b: number) =>
    plot.left + ((Math.log2(b) - x0) / Math.max(1, x1 - x0)) * (plot.right - plot.left);
  const sy = (v: number) =>
    plot.bottom -
    ((Math.log10(Math.max(floor, v)) - y0) / Math.max(1, y1 - y0)) * (plot.bottom - plot.top);
  const round = (n: number) => Math.round(n * 10) / 10;
  const xTicks: PanelGeometry['xTicks'] = [];
  for (let e = Math.ceil(x0); e <= x1; e++)
    if (e % 4 === ((Math.ceil(x0) % 4) + 4) % 4 || e === x1)
      xTicks.push({ x: round(sx(2 ** e)), label: SIZE_LABEL(2 ** e) });
  const yTicks: PanelGeometry['yTicks'] = [];
  for (let e = y0; e <= y1; e++) yTicks.push({ y: round(sy(10 ** e)), label: `${10 ** e}` });
  return {
    width,
    height,
    plot,
    measured: p.measured.map((q) => ({
      x: round(sx(q.bytes)),
      y: round(sy(q.busbw)),
      label: `${SIZE_LABEL(q.bytes)}B: ${q.busbw.toFixed(2)} GB/s measured${q.notModelled ? ' (not modelled)' : ''}`,
      notModelled: q.notModelled === true,
    })),
    predictedPath: p.predicted
      .map((q, i) => `${i ? 'L' : 'M'}${round(sx(q.bytes))},${round(sy(q.busbw))}`)
      .join(' '),
    xTicks,
    yTicks,
  };
}
