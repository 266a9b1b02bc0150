/** <ranks-scaling-plot>: toggles overlap in the model chart and measures real throughput on 1, 2 and 4 ranks. */
import { scalingChartSvg } from './scaling-chart-svg';

const MEASURE_WORLDS = [1, 2, 4];
const THROUGHPUT_LINE = /throughput: ([\d.]+) samples\/s/;

class ScalingPlotElement extends HTMLElement {
  connectedCallback(): void {
    const overlap = this.querySelector<HTMLInputElement>('[data-overlap]')!;
    overlap.addEventListener('change', () => void this.redraw(overlap));
    this.querySelector('[data-measure]')!.addEventListener('click', () => void this.measure());
  }

  /** Redraws the model curve, caption and table for the Overlap setting (the cluster model loads on first use). */
  private async redraw(overlap: HTMLInputElement): Promise<void> {
    const { MODEL_NAME, modelSeries, scalingCaption, scalingTableRows } =
      await import('./scaling-series');
    this.querySelector('[data-model-chart]')!.innerHTML = scalingChartSvg(
      modelSeries(overlap.checked ? 1 : 0),
      { label: this.dataset.modelLabel ?? '', yLabel: 'samples / s (log scale)' },
    );
    this.querySelector('[data-model-name]')!.textContent = overlap.checked
      ? MODEL_NAME.on
      : MODEL_NAME.off;
    // The caption and the data table follow the curve: both are read off the same model call.
    const setting = overlap.checked ? 1 : 0;
    this.querySelector('[data-caption]')!.textContent = scalingCaption(setting);
    this.querySelector('[data-table-body]')!.replaceChildren(
      ...scalingTableRows(setting).map((cells) => {
        const row = document.createElement('tr');
        for (const text of cells) {
          const td = document.createElement('td');
          td.className = 'num';
          td.textContent = text;
          row.append(td);
        }
        return row;
      }),
    );
  }

  private async measure(): Promise<void> {
    const button = this.querySelector<HTMLButtonElement>('[data-measure]')!;
    const status = this.querySelector('[data-measure-status]')!;
    if (!globalThis.crossOriginIsolated) {
      status.textContent =
        'This page is not cross-origin isolated, so ranks cannot share memory here; the measurement needs the site served with its COOP/COEP headers.';
      return;
    }
    button.disabled = true;
    const code = this.dataset.code ?? '';
    const measured: { n: number; y: number }[] = [];
    try {
      const { startCluster } = await import('../../../playground/cluster/browser.ts');
      for (const worldSize of MEASURE_WORLDS) {
        status.textContent = `Running ${worldSize} rank${worldSize === 1 ? '' : 's'}…`;
        let value: number | undefined;
        const run = startCluster({ code, worldSize, backend: 'auto' }, (e) => {
          const m = e.type === 'log' ? THROUGHPUT_LINE.exec(e.text) : null;
          if (m) value = Number(m[1]);
        });
        const result = await run.done;
        if (!result.ok || value === undefined)
          throw new Error(`the ${worldSize}-rank run ended with ${result.reason}`);
        measured.push({ n: worldSize, y: value });
        this.drawMeasured(measured);
      }
      const last = measured.at(-1)!;
      status.textContent = `Done: ${last.y.toFixed(0)} samples/s on ${last.n} ranks, ${((last.y / (last.n * measured[0]!.y)) * 100).toFixed(0)} % of linear scaling from 1 rank.`;
    } catch (e) {
      status.textContent = `Measurement failed: ${(e as Error).message}`;
    } finally {
      button.disabled = false;
    }
  }

  private drawMeasured(points: { n: number; y: number }[]): void {
    const base = points[0]!.y;
    const chart = this.querySelector<HTMLElement>('[data-measured-chart]')!;
    chart.hidden = false;
    chart.innerHTML = scalingChartSvg(
      [
        {
          name: 'ideal from 1 rank',
          cls: 'sc-ideal',
          points: points.map((p) => ({ n: p.n, y: p.n * base })),
        },
        { name: 'measured', cls: 'sc-measured', points },
      ],
      {
        label: `Measured throughput on this machine: ${points.map((p) => `${p.n} ranks ${p.y.toFixed(0)} samples/s`).join(', ')}`,
        yLabel: 'samples / s (log scale)',
      },
    );
    this.querySelector<HTMLElement>('[data-measured-legend]')!.hidden = false;
    this.dataset.measured = JSON.stringify(points);
  }
}

if (!customElements.get('ranks-scaling-plot'))
  customElements.define('ranks-scaling-plot', ScalingPlotElement);
