import type { VirtualStepRank, VirtualStepReport } from '../../../playground/cluster/protocol.ts';
import { describeMeans, stepDefinitions } from '../../../playground/simulation/index.ts';
import { formatSeconds } from './virtual-timeline-view.ts';

/** The fields of a run's VirtualStepReport the page shows. */
export type StepRow = Omit<VirtualStepReport, 'ranks'> & {
  ranks: readonly Pick<
    VirtualStepRank,
    | 'rank'
    | 'start'
    | 'end'
    | 'computeSeconds'
    | 'commSeconds'
    | 'exposedCommSeconds'
    | 'peerWaitSeconds'
    | 'chargedAs'
    | 'configuration'
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
  if (!as) return 'charged as the kernels this program ran (no larger model)';
  const sizes = steps.at(-1)?.ranks[0]?.chargedAs?.sizes;
  return `charged as ${as.model ? `${as.model} (${formatCount(as.params)} parameters)` : `a ${formatCount(as.params)}-parameter model`}, ${as.tokensPerStep.toLocaleString('en')} tokens per step${sizes ? `; last step: ${sizes}` : ''}`;
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
  // Means per configuration the program named (never across two), each figure the slowest rank's.
  const summary = document.createElement('p');
  summary.className = 'pg-step-summary';
  summary.style.whiteSpace = 'pre-line';
  summary.textContent = `${describeMeans(steps, formatSeconds).join('.\n')}. A step lasts as long as its slowest rank.`;
  const definitions = document.createElement('details');
  definitions.className = 'pg-step-definitions';
  definitions.innerHTML = '<summary>What the figures mean</summary>';
  const list = document.createElement('ul');
  for (const d of stepDefinitions()) {
    const item = document.createElement('li');
    item.textContent = d;
    list.append(item);
  }
  definitions.append(list);
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
  container.append(heading, summary, definitions, table, perRank);
}
