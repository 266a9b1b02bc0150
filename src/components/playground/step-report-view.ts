import type { VirtualStepRank, VirtualStepReport } from '../../../playground/cluster/protocol.ts';
import { formatSeconds } from './virtual-timeline-view.ts';

/** The fields of a run's VirtualStepReport the page shows. */
export type StepRow = Omit<VirtualStepReport, 'ranks'> & {
  ranks: readonly Pick<
    VirtualStepRank,
    'rank' | 'start' | 'end' | 'computeSeconds' | 'commSeconds' | 'exposedCommSeconds' | 'chargedAs'
  >[];
};

/** Steps shown one per row; longer runs show their first and last few. */
const MAX_ROWS = 12;

/** 7e9 → "7B", 1.3e8 → "130M": how the page names a charged model size. */
export function formatCount(n: number): string {
  for (const [unit, scale] of [
    ['T', 1e12],
    ['B', 1e9],
    ['M', 1e6],
    ['K', 1e3],
  ] as const)
    if (n >= scale) return `${Number((n / scale).toPrecision(3))}${unit}`;
  return String(n);
}

/** "as 7B parameters, 4,194,304 tokens per step", or what the kernels themselves cost. */
export function describeCharge(steps: readonly StepRow[]): string {
  const as = steps[0]?.ranks[0]?.chargedAs;
  return as
    ? `charged as a ${formatCount(as.params)}-parameter model, ${as.tokensPerStep.toLocaleString('en')} tokens per step`
    : 'charged as the kernels this program ran (no larger model)';
}

const pct = (x: number) => `${(x * 100).toFixed(x < 0.1 ? 1 : 0)}\u00a0%`;

function cells(row: HTMLTableRowElement, values: string[], header = false): void {
  for (const v of values) {
    const c = document.createElement(header ? 'th' : 'td');
    if (header) c.scope = 'col';
    c.textContent = v;
    row.append(c);
  }
}

/**
 * The step report under a simulated run's output: what was charged, the mean step after the first
 * (which warms nothing up in virtual time but may hold one-off work), and a row per step.
 */
export function renderStepReport(
  container: HTMLElement,
  steps: readonly StepRow[],
  clusterName: string,
): void {
  container.replaceChildren();
  const heading = document.createElement('p');
  heading.className = 'pg-step-head';
  if (steps.length === 0) {
    heading.textContent = `Virtual time on ${clusterName}: no step ended, so there is no step report (training wrappers end a step in step(); a plain program calls dist.simulation.endStep()).`;
    container.append(heading);
    return;
  }
  heading.textContent = `Step report in virtual time on ${clusterName}, ${describeCharge(steps)}.`;
  const tail = steps.length > 1 ? steps.slice(1) : steps;
  const mean = (f: (s: StepRow) => number) => tail.reduce((a, s) => a + f(s), 0) / tail.length;
  const meanStep = mean((s) => s.seconds);
  const meanExposed = mean((s) => s.exposedCommSeconds);
  const mfus = tail.map((s) => s.mfu).filter((m): m is number => m !== null);
  const summary = document.createElement('p');
  summary.className = 'pg-step-summary';
  summary.dataset.stepSeconds = String(meanStep);
  summary.textContent =
    `${steps.length > 1 ? `Mean of steps 1–${steps.length - 1}` : 'Step 0'}: step time ${formatSeconds(meanStep)}, ` +
    `exposed communication ${formatSeconds(meanExposed)} (${pct(meanStep > 0 ? meanExposed / meanStep : 0)} of the step)` +
    (mfus.length ? `, MFU ${pct(mfus.reduce((a, b) => a + b, 0) / mfus.length)}` : '') +
    '. A step lasts as long as its slowest rank.';
  const table = document.createElement('table');
  table.createCaption().textContent = 'Per step (slowest rank of each part)';
  cells(
    table.createTHead().insertRow(),
    ['step', 'step time', 'compute', 'communication', 'exposed comm.', 'MFU'],
    true,
  );
  const body = table.createTBody();
  const shown =
    steps.length <= MAX_ROWS
      ? steps
      : [...steps.slice(0, MAX_ROWS / 2), null, ...steps.slice(-MAX_ROWS / 2)];
  for (const s of shown) {
    const row = body.insertRow();
    if (!s) {
      cells(row, [`… ${steps.length - MAX_ROWS} more steps`, '', '', '', '', '']);
      continue;
    }
    cells(row, [
      String(s.step),
      formatSeconds(s.seconds),
      formatSeconds(s.computeSeconds),
      formatSeconds(s.commSeconds),
      formatSeconds(s.exposedCommSeconds),
      s.mfu === null ? '—' : pct(s.mfu),
    ]);
    // The unrounded values, so a test can hold the page against the CLI's table to every digit it prints.
    row.dataset.step = JSON.stringify([
      s.step,
      s.seconds,
      s.computeSeconds,
      s.commSeconds,
      s.exposedCommSeconds,
      s.mfu,
    ]);
  }
  const last = steps.at(-1)!;
  const perRank = document.createElement('details');
  perRank.innerHTML = `<summary>Each rank in step ${last.step}</summary>`;
  const rankTable = document.createElement('table');
  cells(
    rankTable.createTHead().insertRow(),
    ['rank', 'step time', 'compute', 'communication', 'exposed comm.'],
    true,
  );
  const rankBody = rankTable.createTBody();
  for (const r of last.ranks)
    cells(rankBody.insertRow(), [
      String(r.rank),
      formatSeconds(r.end - r.start),
      formatSeconds(r.computeSeconds),
      formatSeconds(r.commSeconds),
      formatSeconds(r.exposedCommSeconds),
    ]);
  perRank.append(rankTable);
  container.append(heading, summary, table, perRank);
}
