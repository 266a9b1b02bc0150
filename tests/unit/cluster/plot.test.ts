import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chartsOf, chartText, plotsText } from '../../../playground/cluster/plot-series.ts';
import { eventFromRank } from '../../../playground/cluster/rank-events.ts';
import { RunRecord } from '../../../playground/cluster/run-record.ts';
import { MAX_PLOT_POINTS, type PlotPoint } from '../../../playground/contract/protocol.ts';
import { plot, setPlotSink } from '../../../playground/rank/plot-api.ts';

const line = (rank: number, x: number, y: number, series = `rank ${rank}`): PlotPoint => ({
  rank,
  kind: 'line',
  chart: 'loss',
  series,
  x,
  y,
});

describe('plot points in the run record', () => {
  it('keeps the first MAX_PLOT_POINTS points of all ranks, counts them all, and records the events kept', () => {
    const record = new RunRecord(2);
    const half = MAX_PLOT_POINTS / 2 + 3;
    for (const rank of [0, 1])
      record.add({
        type: 'plot',
        rank,
        points: Array.from({ length: half }, (_, i) => line(rank, i, i / 2)),
      });
    expect(record.plotTotal).toBe(2 * half);
    expect(record.plots).toHaveLength(MAX_PLOT_POINTS);
    expect(record.plots.at(-1)).toEqual(
      line(1, MAX_PLOT_POINTS - half - 1, (MAX_PLOT_POINTS - half - 1) / 2),
    );
    const kept = record.events.flatMap((e) => (e.type === 'plot' ? e.points : []));
    expect(kept).toHaveLength(MAX_PLOT_POINTS);
    expect(plotsText(record.plots, record.plotTotal).at(-1)).toBe(
      `… 6 more plot points were not kept (a run keeps its first ${MAX_PLOT_POINTS})`,
    );
  });

  it("rebuilds points from the rank's channel: its rank, not the message's; malformed points are dropped", () => {
    const e = eventFromRank(
      {
        type: 'plot',
        points: [
          { rank: 3, kind: 'line', chart: 'loss', series: 'rank 3', x: 1, y: 0.5 },
          { kind: 'line', chart: 'loss', series: 's', x: 'one', y: 1 }, // a line's x is a number
          { kind: 'bar', chart: 'mem', series: 's', x: 2, y: 1 }, // a bar's x is a label
          { kind: 'line', chart: 'loss', series: 's', x: 2, y: Number.NaN },
          { kind: 'pie', chart: 'loss', series: 's', x: 2, y: 1 },
          { kind: 'bar', chart: 'x'.repeat(500), series: 's', x: 'a', y: 1 },
        ],
      },
      1,
    );
    expect(e).toEqual({
      type: 'plot',
      rank: 1,
      points: [
        { rank: 1, kind: 'line', chart: 'loss', series: 'rank 3', x: 1, y: 0.5 },
        { rank: 1, kind: 'bar', chart: 'x'.repeat(80), series: 's', x: 'a', y: 1 },
      ],
    });
  });
});

describe('charts from plot points', () => {
  it('groups by chart and series (ordered by rank, whatever order the ranks drew in), sorts a line by x, and keeps the last value of a bar drawn twice', () => {
    const charts = chartsOf([
      line(1, 2, 0.25),
      line(0, 1, 0.5),
      line(0, 0, 1),
      line(1, 0, 1.5),
      { rank: 0, kind: 'bar', chart: 'MiB', series: 'rank 0', x: 'params', y: 3 },
      { rank: 0, kind: 'bar', chart: 'MiB', series: 'rank 0', x: 'grads', y: 1 },
      { rank: 0, kind: 'bar', chart: 'MiB', series: 'rank 0', x: 'params', y: 2 },
    ]);
    expect(charts.map((c) => [c.title, c.kind, c.series.map((s) => s.name)])).toEqual([
      ['loss', 'line', ['rank 0', 'rank 1']],
      ['MiB', 'bar', ['rank 0']],
    ]);
    expect(charts[0]!.xs).toEqual([0, 1, 2]);
    expect(charts[0]!.series[0]!.points).toEqual([
      { x: 0, y: 1 },
      { x: 1, y: 0.5 },
    ]);
    expect(chartText(charts[0]!)).toEqual([
      'plot "loss" (line, 2 series, 4 points)',
      'x\trank 0\trank 1',
      '0\t1\t1.5',
      '1\t0.5\t',
      '2\t\t0.25',
    ]);
    expect(chartText(charts[1]!)).toEqual([
      'plot "MiB" (bar, 1 series, 2 points)',
      'label\trank 0',
      'params\t2',
      'grads\t1',
    ]);
  });
});

describe('the plot API a program calls', () => {
  it('sends named points to the sink, defaulting the series to the rank; rejects bad arguments with reasons', () => {
    const got: unknown[] = [];
    setPlotSink((p) => got.push(p), 2);
    try {
      plot.line('loss', 3, 0.125);
      plot.bar('bytes', 'all-reduce', 64, { series: 'ddp' });
      expect(got).toEqual([
        { kind: 'line', chart: 'loss', series: 'rank 2', x: 3, y: 0.125 },
        { kind: 'bar', chart: 'bytes', series: 'ddp', x: 'all-reduce', y: 64 },
      ]);
      expect(() => plot.line('loss', 1, Number.NaN)).toThrow(
        /plot.line\('loss'\): y is NaN; a chart draws finite numbers only/,
      );
      expect(() => plot.line('loss', 1, '2' as unknown as number)).toThrow(
        /y must be a number, got string/,
      );
      expect(() => plot.line('', 1, 2)).toThrow(/chart must be a non-empty string/);
      expect(() => plot.bar('b', 3 as unknown as string, 2)).toThrow(
        /label must be a non-empty string/,
      );
      expect(got).toHaveLength(2);
    } finally {
      setPlotSink(undefined);
    }
    expect(() => plot.line('loss', 0, 1)).toThrow(/only available inside a rank/);
  });
});

describe('npm run ranks -- run prints the charts', () => {
  it('prints every chart as a table after the ranks’ lines, with points from every rank', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ranks-plot-'));
    const file = join(dir, 'plot.ts');
    writeFileSync(
      file,
      `import { dist, plot } from 'ranks';
for (let step = 0; step < 3; step++) plot.line('loss', step, (dist.rank + 1) / (step + 1));
plot.bar('MiB held', 'params', 4 * (dist.rank + 1), { series: \`ddp \${dist.rank}\` });
console.log('done');`,
    );
    const out = spawnSync(
      process.execPath,
      [join(process.cwd(), 'playground', 'cli', 'ranks.ts'), 'run', file, '--world', '2'],
      { encoding: 'utf8', cwd: tmpdir(), timeout: 60_000 },
    );
    expect(out.status).toBe(0);
    const lines = out.stdout.split('\n');
    expect(lines.slice(0, 2).sort()).toEqual(['[rank 0] done', '[rank 1] done']);
    const table = lines.slice(lines.indexOf('plot "loss" (line, 2 series, 6 points)'));
    expect(table.slice(1, 5).map((l) => l.split('\t'))).toEqual([
      ['x', expect.stringMatching(/^rank [01]$/), expect.stringMatching(/^rank [01]$/)],
      ...[0, 1, 2].map((step) => {
        const header = table[1]!.split('\t');
        return [
          String(step),
          ...header
            .slice(1)
            .map((s) => String(Number(((Number(s.at(-1)) + 1) / (step + 1)).toPrecision(4)))),
        ];
      }),
    ]);
    const bars = lines.slice(lines.indexOf('plot "MiB held" (bar, 2 series, 2 points)'));
    const [header, row] = [bars[1]!.split('\t'), bars[2]!.split('\t')];
    expect(Object.fromEntries(header.map((h, i) => [h, row[i]]))).toEqual({
      label: 'params',
      'ddp 0': '4',
      'ddp 1': '8',
    });
  }, 60_000);
});
