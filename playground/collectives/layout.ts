/**
 * Where everything lives in the one shared memory all ranks map. Offsets are bytes; control words are
 * Int32 indices. Every block a rank writes often sits on its own 64-byte line so ranks don't false-share.
 *
 * Size (createSharedWorld's defaults): a fixed 64 MB of data regions and 16 MB of mailbox slots, then about
 * 27 KB a rank of control words (progress blocks and arrivals of 160 group slots, its call block, 16 mailbox
 * lines) and the fused kernel's 4 bytes a group member: 80.4 MB at 16 ranks, 86.9 MB at 256, 110.3 MB at 1,024
 * (tests/unit/collectives/world-layout.test.ts). A mailbox per pair took 1.1 GB at 1,024.
 */
export const MAGIC = 0x52414e4b; // 'RANK'
/**
 * Group slots of a world (the world itself is slot 0): HSDP on 128 nodes × 8 GPUs makes 128 node groups and 8
 * rail groups (ranks naming the same members share a slot), so 160 leaves room beside them. Each slot costs
 * every rank a progress block and its arrivals (160 B): 25 MB of the shared memory at 1,024 ranks.
 */
export const MAX_GROUPS = 160;
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
/** Ranks marked dead (planned faults): while 0, a wait need not look at every rank's call block for one. */
export const H_DEAD = 4;
/** A random id of the world, so the ranks of one thread find their shared state (thread-collectives.ts). */
export const H_WORLD_ID = 5;
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
/**
 * The peer this rank is blocked on in a point-to-point call, 0 when none: 1 + src while in recv from src, −(1 + dst)
 * while a send to dst waits for dst to take its previous chunk. Peers follow these to name a cycle.
 */
export const C_RECV_FROM = C_HEARTBEAT + 1;
/** Edges of this rank's tfjs kernels (+1 as one starts, +1 as it ends; odd while one runs): a busy thread whose count stands still is not computing. */
export const C_KERNELS = C_RECV_FROM + 1;
/** tfjs reads this rank awaits (data(), array()): above 0 it waits on its device (a GPU readback, a first shader compile), not on a peer. */
export const C_AWAITING = C_KERNELS + 1;
/**
 * For a rank that shares its thread (rank/rank-host.ts): 1 + the thread's first rank, whose C_HOLDER says which
 * rank's code runs on the thread now (one word a thread to write at every turn, not one a rank); 0 when the rank
 * has a thread of its own.
 */
export const C_TURN = C_AWAITING + 1;
/**
 * How the rank ended, 0 while it runs: C_END_DIED once it died in a simulated run (a planned fault; peers waiting
 * for it time out), C_END_EXITED once its program returned or threw (peers waiting for it fail at once, naming it).
 */
export const C_DEAD = C_TURN + 1;
export const C_END_DIED = 1;
export const C_END_EXITED = 2;
/** In a thread's first rank's block: 1 + the rank whose code runs on the thread now, 0 when none does. */
export const C_HOLDER = C_DEAD + 1;
/** A rank's call block: two lines (C_HOLDER is its 17th word). */
const CALL_BLOCK = 2 * LINE;

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

/**
 * Point-to-point mailboxes a world has: one per ordered pair up to 16 ranks (every pair has its own, as before),
 * then 16 a rank on average, shared by the whole world. A pair gets one from the pool on its first send or recv
 * (`claimMailbox`), so a ring, a tree or one rank talking to all others fits, and the shared memory grows with
 * W, not W² (1,024 ranks would need a million pair mailboxes: 64 MB of control lines and 1 GB of slots).
 */
export const MAILBOXES_PER_RANK = 16;
export const mailboxCount = (worldSize: number) =>
  Math.min(worldSize * worldSize, MAILBOXES_PER_RANK * worldSize);

/** Bytes of a rank's scratch table: one address per group member for the fused kernel, at least SCRATCH_BYTES. */
export const scratchBytes = (worldSize: number) =>
  Math.ceil(Math.max(SCRATCH_BYTES, worldSize * 4) / LINE) * LINE;

const alignUp = (x: number, a: number) => Math.ceil(x / a) * a;

export interface WorldLayout {
  totalBytes: number;
  groupsOffset: number; // MAX_GROUPS slots of groupWords(worldSize) words: state, then member bitmask
  progressOffset: number; // MAX_GROUPS × worldSize blocks of two lines
  callsOffset: number; // worldSize call blocks of two lines
  arrivedOffset: number; // MAX_GROUPS lines: the sum of a group's progress counters, its waiter count
  mailboxTableOffset: number; // mailboxes Int32 words: 1 + src × worldSize + dst of the pair that claimed each, 0 while free
  mailboxCtrlOffset: number; // mailboxes lines
  scratchOffset: number; // worldSize × scratchBytes: each rank's address table for the fused kernel (a word a member)
  scratchBytes: number;
  arrivalsOffset: number; // MAX_GROUPS × worldSize × DESC_SLOTS Float64: virtual arrival per call (simulated runs)
  regionsOffset: number; // worldSize regions of regionBytes
  regionBytes: number;
  mailboxesOffset: number; // mailboxes slots of mailboxBytes
  mailboxBytes: number;
  /** Point-to-point mailboxes in the pool (mailboxCount). */
  mailboxes: number;
}

/** Computes the layout; `arenaBytes` is the total size of the per-rank data regions. */
export function computeLayout(
  worldSize: number,
  arenaBytes: number,
  mailboxBytes: number,
): WorldLayout {
  const mailboxes = mailboxCount(worldSize);
  const scratch = scratchBytes(worldSize);
  const groupsOffset = 8192;
  const progressOffset = alignUp(groupsOffset + MAX_GROUPS * groupWords(worldSize) * 4, LINE);
  const callsOffset = progressOffset + MAX_GROUPS * worldSize * PROGRESS_BLOCK;
  const arrivedOffset = callsOffset + worldSize * CALL_BLOCK;
  const mailboxTableOffset = arrivedOffset + MAX_GROUPS * LINE;
  const mailboxCtrlOffset = alignUp(mailboxTableOffset + mailboxes * 4, LINE);
  const scratchOffset = mailboxCtrlOffset + mailboxes * LINE;
  const arrivalsOffset = alignUp(scratchOffset + worldSize * scratch, LINE);
  const regionsOffset = alignUp(arrivalsOffset + MAX_GROUPS * worldSize * DESC_SLOTS * 8, 4096);
  const regionBytes = Math.max(4096, Math.floor(arenaBytes / worldSize / 4096) * 4096);
  const mailboxesOffset = regionsOffset + worldSize * regionBytes;
  const totalBytes = alignUp(mailboxesOffset + mailboxes * mailboxBytes, PAGE);
  return {
    totalBytes,
    groupsOffset,
    progressOffset,
    callsOffset,
    arrivedOffset,
    mailboxTableOffset,
    mailboxCtrlOffset,
    scratchOffset,
    scratchBytes: scratch,
    arrivalsOffset,
    regionsOffset,
    regionBytes,
    mailboxesOffset,
    mailboxBytes,
    mailboxes,
  };
}

/** Int32 index of the progress block of `rank` in group slot `group`. */
export const progressIndex = (l: WorldLayout, worldSize: number, group: number, rank: number) =>
  (l.progressOffset + (group * worldSize + rank) * PROGRESS_BLOCK) >> 2;
export const callIndex = (l: WorldLayout, rank: number) => (l.callsOffset + rank * CALL_BLOCK) >> 2;
/**
 * Int32 index of group `group`'s arrival count: every member's step adds one to it as to the member's own
 * counter, so a barrier every member reaches at the same step waits on one word, not on each member's.
 */
export const arrivedIndex = (l: WorldLayout, group: number) =>
  (l.arrivedOffset + group * LINE) >> 2;
/** Int32 index of the control line of mailbox `mailbox` (a number from claimMailbox). */
export const mailboxCtrlIndex = (l: WorldLayout, mailbox: number) =>
  (l.mailboxCtrlOffset + mailbox * LINE) >> 2;
export const mailboxOffset = (l: WorldLayout, mailbox: number) =>
  l.mailboxesOffset + mailbox * l.mailboxBytes;
export const scratchOffset = (l: WorldLayout, rank: number) =>
  l.scratchOffset + rank * l.scratchBytes;
export const regionOffset = (l: WorldLayout, rank: number) =>
  l.regionsOffset + rank * l.regionBytes;

/**
 * The mailbox of the pair src → dst, claimed from the pool on the pair's first use (lock-free: sender and
 * receiver may ask at once, and both get the same one); -1 once the pool is full. A world small enough for a
 * mailbox per pair gives the pair its own, src × worldSize + dst, without a search. Larger worlds hash the pair
 * into the table and probe on: a rank remembers its answer (point-to-point.ts), so a pair searches once a rank.
 */
export function claimMailbox(
  words: Int32Array,
  l: WorldLayout,
  worldSize: number,
  src: number,
  dst: number,
): number {
  const pair = src * worldSize + dst;
  const n = l.mailboxes;
  const table = l.mailboxTableOffset >> 2;
  const start = n === worldSize * worldSize ? pair : (Math.imul(pair + 1, 0x9e3779b1) >>> 0) % n;
  for (let k = 0; k < n; k++) {
    const slot = (start + k) % n;
    const held = Atomics.compareExchange(words, table + slot, 0, pair + 1);
    if (held === 0 || held === pair + 1) return slot;
  }
  return -1;
}

/** Float64 index of `rank`'s virtual arrival at call `seq` of group `group` (slots reused like descriptors). */
export const arrivalIndex = (
  l: WorldLayout,
  worldSize: number,
  group: number,
  rank: number,
  seq: number,
) => (l.arrivalsOffset >> 3) + (group * worldSize + rank) * DESC_SLOTS + (seq % DESC_SLOTS);
