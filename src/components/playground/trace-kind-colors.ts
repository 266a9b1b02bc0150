import type { TraceKind, VirtualSpanKind } from '../../../playground/contract/protocol.ts';

/**
 * The timeline's colour for every kind the runtime traces, keyed by the one list in
 * playground/contract/protocol.ts: a new collective kind fails the type check until it has a colour.
 * Each keeps white legend text at WCAG AA contrast.
 */
export const TRACE_KIND_COLORS: Record<TraceKind, string> = {
  allReduce: '#0b5cad',
  reduceScatter: '#b04a00',
  allGather: '#1f7a3a',
  broadcast: '#8e2a8b',
  reduce: '#8a5a00',
  scatter: '#8a5a00',
  gather: '#8a5a00',
  barrier: '#6b6b6b',
  send: '#00727a',
  recv: '#00727a',
  compute: '#5b6470',
};

/**
 * The virtual timeline's colour for each span kind (compute lane: forward, backward, optimizer, other
 * compute; comm lane: collectives take their collective's colour above, point-to-point its send/recv
 * colour). Each keeps white text at WCAG AA contrast.
 */
export const VIRTUAL_SPAN_KIND_COLORS: Record<VirtualSpanKind, string> = {
  forward: '#6a3d9a',
  backward: '#a3195b',
  optimizer: '#5c5c00',
  compute: '#5b6470',
  collective: TRACE_KIND_COLORS.allReduce,
  p2p: TRACE_KIND_COLORS.send,
  idle: '#6b6b6b',
};

const COLLECTIVE_COLORS: Record<string, string> = {
  'all-reduce': TRACE_KIND_COLORS.allReduce,
  'reduce-scatter': TRACE_KIND_COLORS.reduceScatter,
  'all-gather': TRACE_KIND_COLORS.allGather,
  broadcast: TRACE_KIND_COLORS.broadcast,
  reduce: TRACE_KIND_COLORS.reduce,
  scatter: TRACE_KIND_COLORS.scatter,
  gather: TRACE_KIND_COLORS.gather,
  barrier: TRACE_KIND_COLORS.barrier,
};

/** A virtual span's colour: its collective's when it is one the runtime names, else its kind's. */
export const virtualSpanColor = (kind: VirtualSpanKind, collective?: string): string =>
  (collective && COLLECTIVE_COLORS[collective]) || VIRTUAL_SPAN_KIND_COLORS[kind];
