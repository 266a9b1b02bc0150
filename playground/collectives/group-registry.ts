import { MAX_GROUPS } from './layout.ts';

/** A process group as the engine sees it: a slot in the shared registry and its members in order. */
export interface GroupInfo {
  slot: number;
  members: number[];
  /** Position of each global rank in `members`, -1 if absent. */
  indexOf: (rank: number) => number;
}

export function groupInfo(slot: number, members: number[]): GroupInfo {
  const index = new Map(members.map((r, i) => [r, i]));
  return { slot, members, indexOf: (r) => index.get(r) ?? -1 };
}

/**
 * Finds or claims the registry slot for this member set (lock-free): any rank may create a group, in any
 * order, and ranks that name the same members share one slot and so one sequence of calls.
 */
export function registerGroup(
  words: Int32Array,
  groupsIndex: number,
  worldSize: number,
  ranks: number[],
): GroupInfo {
  if (!Array.isArray(ranks) || ranks.length === 0)
    throw new Error('newGroup: give a non-empty array of ranks');
  const seen = new Set<number>();
  for (const r of ranks) {
    if (!Number.isInteger(r) || r < 0 || r >= worldSize)
      throw new Error(`newGroup: rank ${r} is outside the world (ranks 0..${worldSize - 1})`);
    if (seen.has(r)) throw new Error(`newGroup: rank ${r} is listed twice`);
    seen.add(r);
  }
  const members = [...ranks].sort((a, b) => a - b);
  const mask = members.reduce((m, r) => m | (1 << r), 0);
  for (let slot = 0; slot < MAX_GROUPS; slot++) {
    const old = Atomics.compareExchange(words, groupsIndex + slot, 0, mask);
    if (old === 0 || old === mask) return groupInfo(slot, members);
  }
  throw new Error(`newGroup: at most ${MAX_GROUPS - 1} distinct groups per run`);
}
