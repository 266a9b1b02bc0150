/**
 * The contract between a page (or the CLI) and a running cluster of ranks. The words themselves live in
 * contract/protocol.ts; they are re-exported here so the page imports one module.
 */
import type { RunResult } from '../contract/protocol.ts';
import type { RunRecord } from './run-record.ts';

export type { RecordedLine, RankRecord } from './run-record.ts';
export type { RunRecord } from './run-record.ts';
export {
  chartsOf,
  chartRows,
  chartText,
  formatPlotNumber,
  omittedChartsNote,
  omittedSeriesNote,
} from './plot-series.ts';
export { droppedLinesNote, paneLine } from '../contract/output-limits.ts';
export type { PlotChart, PlotSeries } from './plot-series.ts';
export { describeRanks, FOLD_ABOVE_RANKS, foldRankLines, LineFolder } from './fold-lines.ts';
export type { FoldedLine } from './fold-lines.ts';
export { arrivals, representativeRanks } from './arrival-percentiles.ts';
export type { ArrivalPick, Arrivals } from './arrival-percentiles.ts';
export type {
  Backend,
  BackendChoice,
  ClusterEvent,
  RunOptions,
  RunResult,
  TraceEvent,
  PlotPoint,
  SimulatedClusterOptions,
  VirtualLane,
  VirtualTraceEvent,
  VirtualStepRank,
  VirtualStepReport,
} from '../contract/protocol.ts';
/** The presets a cluster selector offers (cited data; `describeShape` names a choice). */
export {
  CLUSTER_PRESETS,
  PRESET_IDS,
  MAX_REAL_RANKS,
  clusterShape,
  describeShape,
} from '../simulation/index.ts';
export type { ClusterPreset, PresetId } from '../simulation/index.ts';
/** A virtual span's kind, label and detail, and a run's trace as Chrome trace-event JSON (the timeline and Download trace). */
export { virtualSpanDetails, virtualSpanInfo } from './virtual-span-info.ts';
export type { VirtualSpanInfo } from './virtual-span-info.ts';
export { chromeTrace } from './chrome-trace.ts';

/** A started run: `done` settles once every rank has exited, or the run was stopped or timed out. */
export interface RunningCluster {
  done: Promise<RunResult>;
  /** Terminates every rank worker at once. */
  stop(): void;
  /** The run as it is recorded: lines, errors, traces and exit of every rank, then the result. */
  record: RunRecord;
}
