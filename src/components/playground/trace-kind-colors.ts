import type { TraceKind } from '../../../playground/contract/protocol.ts';

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
