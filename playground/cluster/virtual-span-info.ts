/**
 * What a virtual trace span is, for the timeline and the trace export: its kind, a human label and the
 * collective it ran. Spans from a runtime that sets `kind`/`collective` are read as they are; older spans
 * (only `name` and `lane`: 'forward', 'backward', 'optimizer', or 'allReduce 4.19 MB', 'send → 1 4 MB')
 * are classified from their name, so the page draws either.
 */
import type { VirtualSpanKind, VirtualTraceEvent } from '../contract/protocol.ts';
import { formatBytes } from '../simulation/virtual-call-text.ts';

export interface VirtualSpanInfo {
  kind: VirtualSpanKind;
  /** 'backward (layer 3)', 'bucket 2 all-reduce', 'all-reduce 4.19 MB', 'forward'. */
  label: string;
  /** Kebab-case collective ('all-reduce', 'all-gather', …) for collective spans. */
  collective?: string;
}

/** 'allReduce' → 'all-reduce', 'reduceScatter' → 'reduce-scatter'; already kebab names stay. */
export const kebabCollective = (name: string): string =>
  name.replace(/([a-z])([A-Z])/g, '$1-$2').toLowerCase();

const COMPUTE_KINDS: readonly VirtualSpanKind[] = ['forward', 'backward', 'optimizer'];

export function virtualSpanInfo(
  span: Pick<VirtualTraceEvent, 'lane' | 'name'> & Partial<VirtualTraceEvent>,
): VirtualSpanInfo {
  const name = span.name.trim();
  const first = /^[A-Za-z-]+/.exec(name)?.[0] ?? '';
  let kind = span.kind;
  if (!kind) {
    if (span.lane === 'comm') kind = /^(send|recv)\b/.test(name) ? 'p2p' : 'collective';
    else kind = COMPUTE_KINDS.find((k) => first === k) ?? (first === 'idle' ? 'idle' : 'compute');
  }
  const collective =
    kind === 'collective'
      ? kebabCollective(
          span.collective ??
            // 'bucket 2 all-reduce' or 'unit 4 all-gather': the collective is the last word.
            (/^(bucket|unit)\b/.test(name) ? (name.split(/\s+/).at(-1) ?? first) : first),
        )
      : undefined;
  // An old-style collective name starts with the camelCase collective: say it as the page says it.
  const label =
    kind === 'collective' && !span.collective && first && /[A-Z]/.test(first)
      ? `${kebabCollective(first)}${name.slice(first.length)}`
      : name;
  return { kind, label, ...(collective ? { collective } : {}) };
}

/**
 * What a span's tooltip adds to its label: size, collective, algorithm, protocol and bus bandwidth, each
 * only when the run reported it ("not reported" for a collective's algorithm when the runtime predates it).
 */
export function virtualSpanDetails(
  span: Partial<VirtualTraceEvent>,
  info: VirtualSpanInfo,
): string[] {
  const parts: string[] = [];
  if (span.bytes !== undefined) parts.push(formatBytes(span.bytes));
  if (info.kind === 'collective' || info.kind === 'p2p') {
    if (span.algorithm) parts.push(`algorithm ${span.algorithm}`);
    if (span.protocol) parts.push(`protocol ${span.protocol}`);
    if (span.busGBps !== undefined) parts.push(`bus bandwidth ${span.busGBps.toPrecision(3)} GB/s`);
    if (!span.algorithm && span.busGBps === undefined)
      parts.push('algorithm and bus bandwidth not reported by this run');
  }
  if (span.configuration) parts.push(`configuration “${span.configuration}”`);
  return parts;
}
