/**
 * Where everything lives in the one shared memory all ranks map. Offsets are bytes; control words are
 * Int32 indices. Every block a rank writes often sits on its own 64-byte line so ranks don't false-share.
 */
export const MAGIC = 0x52414e4b; // 'RANK'
export const MAX_GROUPS = 64;
export const LINE_WORDS = 16;
export const SCRATCH_BYTES = 256;
const LINE = LINE_WORDS * 4;
const PAGE = 65536;

// Header words (Int32 indices).
export const H_MAGIC = 0;
export const H_WORLD = 1;
/** 0 while healthy; 1 once a rank aborted the world (its reason is in the reason bytes). */
export const H_POISON = 2;
export const H_REASON_LEN = 3;
export const REASON_OFFSET = 1024;
export const REASON_BYTES = 4096;

/** Words of one (group, rank) progress block: a counter that only grows, its waiter count, the last few call descriptors. */
export const P_COUNT = 0;
export const P_WAITERS = 1;
export const P_DESC0 = 2;
export const DESC_WORDS = 7;
/** Descriptor slots per block, indexed by sequence number: a peer that runs a few calls ahead keeps ours readable. */
export const DESC_SLOTS = 4;
const PROGRESS_BLOCK = 2 * LINE;

/** Words of a rank's "what it is doing" block, read by peers to name it in errors. */
export const C_STATE = 0; // 0 no call yet, 1 inside a collective, 2 finished it (the fields hold the last call)
export const C_GROUP = 1;
export const C_SEQ = 2;
export const C_DESC = 3; // DESC_WORDS words
/** A counter the rank's event loop bumps every HEARTBEAT_MS: still moving means the rank is not stuck in synchronous work. */
export const C_HEARTBEAT = C_DESC + DESC_WORDS;
/** 1 + the rank this rank is blocked in recv from, 0 when none: peers follow these to name a cycle of receives. */
export const C_RECV_FROM = C_HEARTBEAT + 1;
/** Edges of this rank's tfjs kernels (+1 as one starts, +1 as it ends; odd while one runs): a busy thread whose count stands still is not computing. */
export const C_KERNELS = C_RECV_FROM + 1;
/** tfjs reads this rank awaits (data(), array()): above 0 it waits on its device (a GPU readback, a first shader compile), not on a peer. */
export const C_AWAITING = C_KERNELS + 1;
/** 1 + the rank whose code runs now on this rank's thread, 0 when none runs or the rank has a thread of its own (rank/rank-host.ts). */
export const C_TURN = C_AWAITING + 1;
/**
 * How the rank ended, 0 while it runs: C_END_DIED once it died in a simulated run (a planned fault; peers waiting
 * for it time out), C_END_EXITED once its program returned or threw (peers waiting for it fail at once, naming it).
 */
export const C_DEAD = C_TURN + 1;
export const C_END_DIED = 1;
export const C_END_EXITED = 2;

/** Words of one group registry slot: a state word (GROUP_FREE, GROUP_WRITING, GROUP_PUBLISHED), then the member bitmask. */
export const groupWords = (worldSize: number) => 1 + Math.ceil(worldSize / 32);
export const GROUP_FREE = 0;
export const GROUP_WRITING = 1;
export const GROUP_PUBLISHED = 2;

/** Words of a point-to-point mailbox (src → dst): chunks written, chunks taken, their waiter counts, message header. */
export const M_SENT = 0;
export const M_SENT_WAITERS = 1;
export const M_TAKEN = 2;
export const M_TAKEN_WAITERS = 3;
export const M_DTYPE = 4;
export const M_TOTAL = 5;
export const M_CHUNK = 6;
export const M_MESSAGE = 7;
/** Float64 (words 8–9): the sender's virtual arrival for the message in the mailbox (simulated runs). */
export const M_ARRIVAL_F64 = 4;

export interface WorldLayout {
  totalBytes: number;
  groupsOffset: number; // MAX_GROUPS slots of groupWords(worldSize) words: state, then member bitmask
  progressOffset: number; // MAX_GROUPS × worldSize blocks of two lines
  callsOffset: number; // worldSize lines
  mailboxCtrlOffset: number; // worldSize² lines
  scratchOffset: number; // worldSize × SCRATCH_BYTES: each rank's address table for the fused kernel
  arrivalsOffset: number; // MAX_GROUPS × worldSize × DESC_SLOTS Float64: virtual arrival per call (simulated runs)
  regionsOffset: number; // worldSize regions of regionBytes
  regionBytes: number;
  mailboxesOffset: number; // worldSize² slots of mailboxBytes
  mailboxBytes: number;
}

const alignUp = (x: number, a: number) => Math.ceil(x / a) * a;

/** Computes the layout; `arenaBytes` is the total size of the per-rank data regions. */
export function computeLayout(
  worldSize: number,
  arenaBytes: number,
  mailboxBytes: number,
): WorldLayout {
  const groupsOffset = 8192;
  const progressOffset = alignUp(groupsOffset + MAX_GROUPS * groupWords(worldSize) * 4, LINE);
  const callsOffset = progressOffset + MAX_GROUPS * worldSize * PROGRESS_BLOCK;
  const mailboxCtrlOffset = callsOffset + worldSize * LINE;
  const scratchOffset = mailboxCtrlOffset + worldSize * worldSize * LINE;
  const arrivalsOffset = alignUp(scratchOffset + worldSize * SCRATCH_BYTES, LINE);
  const regionsOffset = alignUp(arrivalsOffset + MAX_GROUPS * worldSize * DESC_SLOTS * 8, 4096);
  const regionBytes = Math.max(4096, Math.floor(arenaBytes / worldSize / 4096) * 4096);
  const mailboxesOffset = regionsOffset + worldSize * regionBytes;
  const totalBytes = alignUp(mailboxesOffset + worldSize * worldSize * mailboxBytes, PAGE);
  return {
    totalBytes,
    groupsOffset,
    progressOffset,
    callsOffset,
    mailboxCtrlOffset,
    scratchOffset,
    arrivalsOffset,
    regionsOffset,
    regionBytes,
    mailboxesOffset,
    mailboxBytes,
  };
}

/** Int32 index of the progress block of `rank` in group slot `group`. */
export const progressIndex = (l: WorldLayout, worldSize: number, group: number, rank: number) =>
  (l.progressOffset + (group * worldSize + rank) * PROGRESS_BLOCK) >> 2;
export const callIndex = (l: WorldLayout, rank: number) => (l.callsOffset + rank * LINE) >> 2;
export const mailboxCtrlIndex = (l: WorldLayout, worldSize: number, src: number, dst: number) =>
  (l.mailboxCtrlOffset + (src * worldSize + dst) * LINE) >> 2;
export const scratchOffset = (l: WorldLayout, rank: number) =>
  l.scratchOffset + rank * SCRATCH_BYTES;
export const regionOffset = (l: WorldLayout, rank: number) =>
  l.regionsOffset + rank * l.regionBytes;
export const mailboxOffset = (l: WorldLayout, worldSize: number, src: number, dst: number) =>
  l.mailboxesOffset + (src * worldSize + dst) * l.mailboxBytes;
/** Float64 index of `rank`'s virtual arrival at call `seq` of group `group` (slots reused like descriptors). */
export const arrivalIndex = (
  l: WorldLayout,
  worldSize: number,
  group: number,
  rank: number,
  seq: number,
) => (l.arrivalsOffset >> 3) + (group * worldSize + rank) * DESC_SLOTS + (seq % DESC_SLOTS);
