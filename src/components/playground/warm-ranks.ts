/**
 * Warm ranks, the page's side: whether this device can afford to prepare a world of ranks ahead of a Run,
 * and the call that does it. Loaded only when the page is idle, never before interaction.
 */
import type { BackendChoice } from '../../../playground/cluster/protocol.ts';
import {
  compileAhead,
  coolRanks,
  hostWorkers,
  warmRanks,
} from '../../../playground/cluster/browser.ts';

export { coolRanks };

/** Memory a prepared rank is assumed to hold (a worker, tfjs, the WASM heap): an upper estimate, not a measurement. */
export const WARM_RANK_BYTES = 64 << 20;
/** Warm ranks may take at most this share of the device's memory (navigator.deviceMemory). */
export const WARM_MEMORY_SHARE = 1 / 8;
/**
 * Largest world prepared ahead: the chapters' own worlds (a larger one is the reader's explicit choice, and
 * preparing it would spend seconds of the reader's cores on ranks they may not run).
 */
export const MAX_WARM_WORLD = 16;

export interface DeviceHints {
  /** navigator.deviceMemory in GB (Chromium rounds it down, at most 8); unknown elsewhere. */
  deviceMemoryGB?: number;
  /** navigator.hardwareConcurrency. */
  cores?: number;
  /** navigator.connection.saveData: the reader asked for less data, so nothing is fetched ahead. */
  saveData?: boolean;
}

/**
 * Whether preparing `worldSize` ranks ahead of a Run fits this device; unknown hints are taken as a small laptop.
 * What loads is workers: one a rank up to the cores, beyond that logical ranks share one worker a core
 * (playground/cluster/cluster-core.ts hostWorkers), so 16 ranks on 2 cores prepare 2 workers, not 16.
 */
export function mayWarm(worldSize: number, hints: DeviceHints): boolean {
  if (hints.saveData) return false;
  const memory = (hints.deviceMemoryGB ?? 4) * 2 ** 30;
  const cores = hints.cores ?? 2;
  return (
    cores >= 2 &&
    hostWorkers(worldSize, cores) * WARM_RANK_BYTES <= memory * WARM_MEMORY_SHARE &&
    worldSize <= MAX_WARM_WORLD
  );
}

export function deviceHints(): DeviceHints {
  const nav = navigator as Navigator & {
    deviceMemory?: number;
    connection?: { saveData?: boolean };
  };
  return {
    deviceMemoryGB: nav.deviceMemory,
    cores: nav.hardwareConcurrency,
    saveData: nav.connection?.saveData,
  };
}

/** What the next Run is expected to run: compiled ahead, so the Run does not wait for the compiler. */
export interface NextProgram {
  code: string;
  checks?: string;
}

/**
 * Prepares the next run's ranks if the device can afford them (else frees any), and compiles the program
 * the Run is expected to run; resolves when the ranks are ready.
 */
export async function warmFor(
  worldSize: number,
  backend: BackendChoice,
  next: NextProgram,
): Promise<void> {
  if (!globalThis.crossOriginIsolated) return; // a Run says why; warming has nothing to add
  const ready = mayWarm(worldSize, deviceHints()) ? warmRanks(worldSize, backend) : coolRanks();
  compileAhead(next.code, next.checks); // on the page's thread while the ranks load on theirs
  await ready;
}
