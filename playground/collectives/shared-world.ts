import { checkWorldSize } from '../contract/protocol.ts';
import {
  computeLayout,
  H_MAGIC,
  H_WORLD,
  H_WORLD_ID,
  MAGIC,
  mailboxCount,
  mailboxCtrlIndex,
  MAX_GROUPS,
  M_SENT,
  M_TAKEN,
  P_COUNT,
  progressIndex,
  type WorldLayout,
} from './layout.ts';
import { WorldSync } from './world-sync.ts';
import { writeGroup } from './group-registry.ts';

/** Everything a rank needs to join the world; structured-cloneable, posted to every rank worker. */
export interface SharedWorld {
  memory: WebAssembly.Memory;
  worldSize: number;
  layout: WorldLayout;
  /** A wait with no progress for this long ends with an error naming the missing ranks. */
  watchdogMs: number;
  /** Cores on the creating machine: waiters spin briefly only when every rank can have its own core. */
  hardwareConcurrency: number;
}

export interface SharedWorldOptions {
  /** Total bytes of the per-rank data regions (payloads larger than a region are chunked). Default 64 MB, capped at 16 MB a rank. */
  arenaBytes?: number;
  /** Bytes of each point-to-point mailbox slot (longer messages stream through it). Default 64 KB. */
  mailboxBytes?: number;
  watchdogMs?: number;
}

const defaultConcurrency = () =>
  (globalThis as { navigator?: { hardwareConcurrency?: number } }).navigator?.hardwareConcurrency ??
  1;

/** Allocates the shared memory for `worldSize` ranks and writes its header; call on the main thread. */
export function createSharedWorld(
  worldSize: number,
  options: SharedWorldOptions = {},
): SharedWorld {
  checkWorldSize(worldSize);
  const arenaBytes = options.arenaBytes ?? Math.min(64 << 20, worldSize * (16 << 20));
  // The mailbox pool (layout.ts): 64 KB a mailbox up to 16 ranks (16 MB), then smaller slots in the same
  // 16 MB, 1 KB at the least (longer messages stream through a slot in chunks).
  const mailboxBytes =
    options.mailboxBytes ??
    Math.min(
      64 << 10,
      Math.max(1024, Math.floor((16 << 20) / mailboxCount(worldSize) / 1024) * 1024),
    );
  const layout = computeLayout(worldSize, arenaBytes, mailboxBytes);
  const pages = layout.totalBytes / 65536;
  const memory = new WebAssembly.Memory({ initial: pages, maximum: pages, shared: true });
  const words = new Int32Array(memory.buffer);
  words[H_MAGIC] = MAGIC;
  words[H_WORLD] = worldSize;
  words[H_WORLD_ID] = 1 + Math.floor(Math.random() * 0x7ffffffe);
  // Group slot 0 is the whole world.
  writeGroup(
    words,
    layout.groupsOffset >> 2,
    worldSize,
    0,
    Array.from({ length: worldSize }, (_, r) => r),
  );
  return {
    memory,
    worldSize,
    layout,
    watchdogMs: options.watchdogMs ?? 5000,
    hardwareConcurrency: defaultConcurrency(),
  };
}

/**
 * Poisons the world from outside any rank (the cluster, when a rank threw or the run is stopped): every rank
 * waiting in a collective wakes and throws `reason`, and every later call throws it at once.
 */
export function abortSharedWorld(world: SharedWorld, reason: string): void {
  const indexes: number[] = [];
  for (let g = 0; g < MAX_GROUPS; g++)
    for (let r = 0; r < world.worldSize; r++)
      indexes.push(progressIndex(world.layout, world.worldSize, g, r) + P_COUNT);
  for (let m = 0; m < world.layout.mailboxes; m++) {
    const ctrl = mailboxCtrlIndex(world.layout, m);
    indexes.push(ctrl + M_SENT, ctrl + M_TAKEN);
  }
  new WorldSync(world.memory, false, () => 0).poison(reason, indexes);
}
