import { GROUP_FREE, GROUP_PUBLISHED, GROUP_WRITING, groupWords, MAX_GROUPS } from './layout.ts';

/** Longest a rank waits for another thread to finish writing a registry slot (a few words): never forever. */
const WRITER_WAIT_MS = 50;

/** The member bitmask of `members`, one bit a rank, 32 ranks a word. */
function maskOf(worldSize: number, members: number[]): Int32Array {
  const mask = new Int32Array(groupWords(worldSize) - 1);
  for (const r of members) mask[r >> 5]! |= 1 << (r & 31);
  return mask;
}

/** Publishes `members` in registry slot `slot` (the world group at creation; claimed slots in registerGroup). */
export function writeGroup(
  words: Int32Array,
  groupsIndex: number,
  worldSize: number,
  slot: number,
  members: number[],
): void {
  const base = groupsIndex + slot * groupWords(worldSize);
  maskOf(worldSize, members).forEach((w, i) => Atomics.store(words, base + 1 + i, w));
  Atomics.store(words, base, GROUP_PUBLISHED);
}

/** Members of registry slot `slot`, ascending (none while it is free). */
export function groupMembers(
  words: Int32Array,
  groupsIndex: number,
  worldSize: number,
  slot: number,
): number[] {
  const base = groupsIndex + slot * groupWords(worldSize);
  const out: number[] = [];
  if (Atomics.load(words, base) !== GROUP_PUBLISHED) return out;
  for (let r = 0; r < worldSize; r++)
    if (Atomics.load(words, base + 1 + (r >> 5)) & (1 << (r & 31))) out.push(r);
  return out;
}

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
  const mask = maskOf(worldSize, members);
  const stride = groupWords(worldSize);
  for (let slot = 0; slot < MAX_GROUPS; slot++) {
    const base = groupsIndex + slot * stride;
    let state = Atomics.compareExchange(words, base, GROUP_FREE, GROUP_WRITING);
    if (state === GROUP_FREE) {
      writeGroup(words, groupsIndex, worldSize, slot, members);
      return groupInfo(slot, members);
    }
    // Another thread claimed the slot and is writing its members: a few stores away.
    const deadline = performance.now() + WRITER_WAIT_MS;
    while (state === GROUP_WRITING && performance.now() < deadline)
      state = Atomics.load(words, base);
    if (state === GROUP_WRITING)
      throw new Error('newGroup: another rank stopped while registering a group');
    if (mask.every((w, i) => Atomics.load(words, base + 1 + i) === w))
      return groupInfo(slot, members);
  }
  throw new Error(`newGroup: at most ${MAX_GROUPS - 1} distinct groups per run`);
}
