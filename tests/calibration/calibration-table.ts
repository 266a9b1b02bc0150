/** Runs the model on every published point: the table the calibration test checks and the report prints. */
import { clusterShape } from '../../playground/simulation/cluster-shape.ts';
import {
  predictCollective,
  predictSendRecv,
} from '../../playground/simulation/collective-model.ts';
import {
  FITTED_POINTS,
  PUBLISHED_POINTS,
  UNMODELLED_POINTS,
  type PublishedPoint,
} from './published-points.ts';

export interface CalibrationRow {
  point: PublishedPoint;
  predicted: number;
  /** (predicted − published) / published. */
  error: number;
  tolerance: number;
  algorithm: string;
  protocol: string;
}

export const TOLERANCE = { bandwidth: 0.25, latency: 0.5 } as const;

export function predictPoint(p: PublishedPoint): CalibrationRow {
  const m = p.model;
  const shape = clusterShape(m.preset, m.nodes, m.gpusPerNode);
  const r =
    m.collective === 'send-recv'
      ? predictSendRecv(shape, 0, m.gpusPerNode, m.bytes)
      : predictCollective(shape, m.collective, m.bytes, { algorithm: m.algorithm });
  const predicted =
    p.metric === 'busbw' ? r.busbw : p.metric === 'algbw' ? r.algbw : r.seconds * 1e6;
  return {
    point: p,
    predicted,
    error: (predicted - p.published) / p.published,
    tolerance: TOLERANCE[p.kind],
    algorithm: r.algorithm,
    protocol: r.protocol,
  };
}

export const calibrationRows = (
  points: readonly PublishedPoint[] = PUBLISHED_POINTS,
): CalibrationRow[] => points.map(predictPoint);

function unit(p: PublishedPoint): string {
  return p.metric === 'time-us' ? 'µs' : `GB/s ${p.metric}`;
}

export function calibrationMarkdown(): string {
  const row = (r: CalibrationRow) =>
    `| ${r.point.id} | ${r.point.system} | ${r.point.kind} | ${r.point.published} ${unit(r.point)} | ${r.predicted.toFixed(1)} (${r.algorithm}/${r.protocol}) | ${(r.error * 100).toFixed(1)} % | ±${r.tolerance * 100} % |`;
  return [
    '| point | system | kind | published | predicted | error | tolerance |',
    '|---|---|---|---|---|---|---|',
    ...calibrationRows().map(row),
    ...calibrationRows(FITTED_POINTS).map((r) =>
      row(r).replace('| latency |', '| latency (fit) |'),
    ),
    '',
    'Not yet modelled:',
    ...UNMODELLED_POINTS.map((u) => `- ${u.id} (${u.source}): ${u.reason}`),
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`)
  process.stdout.write(`${calibrationMarkdown()}\n`);
