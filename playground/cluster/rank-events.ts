import {
  CLUSTER_EVENT_TYPES,
  isOneOf,
  LOG_LEVELS,
  BACKENDS,
  TRACE_KINDS,
  PLOT_KINDS,
  MAX_PLOT_NAME,
  VIRTUAL_LANES,
  VIRTUAL_SPAN_KINDS,
  type ClusterEvent,
  type PlotPoint,
  type TraceEvent,
  type VirtualStepRank,
  type VirtualTraceEvent,
} from '../contract/protocol.ts';

const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isString = (v: unknown): v is string => typeof v === 'string';
const optional = <T>(v: unknown, is: (v: unknown) => v is T): T | undefined =>
  is(v) ? v : undefined;

function traceEvent(raw: unknown, rank: number): TraceEvent | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const e = raw as Record<string, unknown>;
  if (!isOneOf(TRACE_KINDS, e.kind) || !isNumber(e.start) || !isNumber(e.end) || !isNumber(e.bytes))
    return null;
  const out: TraceEvent = { rank, kind: e.kind, bytes: e.bytes, start: e.start, end: e.end };
  const algorithm = optional(e.algorithm, isString);
  const label = optional(e.label, isString);
  const step = optional(e.step, isNumber);
  const peer = optional(e.peer, isNumber);
  if (algorithm !== undefined) out.algorithm = algorithm;
  if (label !== undefined) out.label = label;
  if (step !== undefined) out.step = step;
  if (peer !== undefined) out.peer = peer;
  return out;
}

function plotPoint(raw: unknown, rank: number): PlotPoint | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const p = raw as Record<string, unknown>;
  if (!isOneOf(PLOT_KINDS, p.kind) || !isString(p.chart) || !isString(p.series) || !isNumber(p.y))
    return null;
  // A line's x is a number, a bar's a label: anything else is dropped, not coerced.
  if (p.kind === 'line' ? !isNumber(p.x) : !isString(p.x)) return null;
  const name = (s: string) => s.slice(0, MAX_PLOT_NAME);
  const x = p.x as number | string;
  return {
    rank,
    kind: p.kind,
    chart: name(p.chart),
    series: name(p.series),
    x: typeof x === 'string' ? name(x) : x,
    y: p.y,
  };
}

function virtualTraceEvent(raw: unknown, rank: number): VirtualTraceEvent | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const e = raw as Record<string, unknown>;
  if (
    !isOneOf(VIRTUAL_LANES, e.lane) ||
    !isString(e.name) ||
    !isNumber(e.start) ||
    !isNumber(e.end) ||
    !isNumber(e.step)
  )
    return null;
  const out: VirtualTraceEvent = {
    rank,
    lane: e.lane,
    name: e.name,
    start: e.start,
    end: e.end,
    step: e.step,
  };
  const bytes = optional(e.bytes, isNumber);
  if (bytes !== undefined) out.bytes = bytes;
  if (isOneOf(VIRTUAL_SPAN_KINDS, e.kind)) out.kind = e.kind;
  if (isNumber(e.index)) out.index = e.index;
  if (isNumber(e.busGBps)) out.busGBps = e.busGBps;
  for (const k of ['collective', 'algorithm', 'protocol', 'configuration'] as const)
    if (isString(e[k])) out[k] = e[k];
  return out;
}

const STEP_NUMBERS = [
  'step',
  'start',
  'end',
  'computeSeconds',
  'commSeconds',
  'exposedCommSeconds',
  'modelFlops',
  'peakFlops',
] as const;

function virtualStep(raw: unknown, rank: number): VirtualStepRank | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const e = raw as Record<string, unknown>;
  if (!STEP_NUMBERS.every((k) => isNumber(e[k]))) return null;
  const out = { rank } as VirtualStepRank;
  for (const k of STEP_NUMBERS) out[k] = e[k] as number;
  const c = e.chargedAs as Record<string, unknown> | undefined;
  if (c && isNumber(c.params) && isNumber(c.tokensPerStep))
    out.chargedAs = {
      params: c.params,
      tokensPerStep: c.tokensPerStep,
      ...(isString(c.model) ? { model: c.model } : {}),
      ...(isString(c.sizes) ? { sizes: c.sizes } : {}),
    };
  if (isString(e.configuration)) out.configuration = e.configuration;
  if (isNumber(e.peerWaitSeconds)) out.peerWaitSeconds = e.peerWaitSeconds;
  return out;
}

/**
 * Reads one message from rank `rank`'s own channel. The channel, not the message, says who speaks: a rank
 * can post anything on its port (it can wrap MessagePort.prototype.postMessage), so every event is rebuilt
 * field by field with the channel's rank, and anything malformed is dropped.
 */
export function eventFromRank(data: unknown, rank: number): ClusterEvent | null {
  if (typeof data !== 'object' || data === null) return null;
  const e = data as Record<string, unknown>;
  if (!isOneOf(CLUSTER_EVENT_TYPES, e.type)) return null;
  switch (e.type) {
    case 'backend':
      if (!isOneOf(BACKENDS, e.backend)) return null;
      return {
        type: 'backend',
        rank,
        backend: e.backend,
        ...(isString(e.reason) ? { reason: e.reason } : {}),
      };
    case 'log':
      if (!isOneOf(LOG_LEVELS, e.level) || !isString(e.text) || !isNumber(e.time)) return null;
      return { type: 'log', rank, level: e.level, text: e.text, time: e.time };
    case 'error': {
      if (!isString(e.message) || !isNumber(e.time)) return null;
      const line = optional(e.line, isNumber);
      const column = optional(e.column, isNumber);
      return {
        type: 'error',
        rank,
        message: e.message,
        time: e.time,
        ...(line === undefined ? {} : { line }),
        ...(column === undefined ? {} : { column }),
      };
    }
    case 'exit':
      if (typeof e.ok !== 'boolean' || !isNumber(e.time)) return null;
      return { type: 'exit', rank, ok: e.ok, time: e.time };
    case 'trace': {
      if (!Array.isArray(e.events)) return null;
      const events = e.events
        .map((t) => traceEvent(t, rank))
        .filter((t): t is TraceEvent => t !== null);
      return { type: 'trace', rank, events };
    }
    case 'plot': {
      if (!Array.isArray(e.points)) return null;
      const points = e.points
        .map((p) => plotPoint(p, rank))
        .filter((p): p is PlotPoint => p !== null);
      return { type: 'plot', rank, points };
    }
    case 'virtual-trace': {
      if (!Array.isArray(e.events)) return null;
      const events = e.events
        .map((t) => virtualTraceEvent(t, rank))
        .filter((t): t is VirtualTraceEvent => t !== null);
      return { type: 'virtual-trace', rank, events };
    }
    case 'virtual-step': {
      const report = virtualStep(e.report, rank);
      return report ? { type: 'virtual-step', rank, report } : null;
    }
  }
}
