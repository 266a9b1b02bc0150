import type { CardStatus } from './progress-store';

/**
 * The card practice mode serves next: the first card after `current` (wrapping around) that is not
 * solved, preferring ones never tried. Deterministic, so a reader works through the list in order.
 */
export function nextUnsolved(
  ids: string[],
  statuses: Record<string, CardStatus>,
  current?: string,
): string | null {
  const start = current ? ids.indexOf(current) + 1 : 0;
  const ring = [...ids.slice(start), ...ids.slice(0, start)].filter((id) => id !== current);
  return ring.find((id) => !statuses[id]) ?? ring.find((id) => statuses[id] !== 'solved') ?? null;
}
