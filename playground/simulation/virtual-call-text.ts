/** How virtual time names what a call moved and why it timed out (the trace's spans, the watchdog's message). */

/** e.g. "4.19 MB": how a span names the bytes it moved. */
export function formatBytes(bytes: number): string {
  const units = ['B', 'kB', 'MB', 'GB', 'TB'];
  let v = bytes;
  let u = 0;
  while (v >= 1000 && u < units.length - 1) {
    v /= 1000;
    u++;
  }
  return `${u === 0 ? v : v.toPrecision(3)} ${units[u]}`;
}

export function virtualTimeoutMessage(
  rank: number,
  place: string,
  timeout: number,
  at: number,
  missing: readonly number[],
): string {
  const who = `rank${missing.length === 1 ? '' : 's'} ${missing.join(', ')}`;
  return `rank ${rank}: ${place} timed out after ${timeout} s of virtual time (at ${at.toFixed(3)} s): ${who} never arrived (a collective timeout, as NCCL's watchdog reports it)`;
}
