import type { SharedWorld } from '../collectives/shared-world.ts';
import type { Backend, BackendChoice, ClusterEvent } from '../contract/protocol.ts';
import type { ResolvedCluster } from '../simulation/cluster-options.ts';

/** What the cluster hands each rank worker to start it. */
export interface RankStart {
  rank: number;
  /** The compiled program (see compile.ts). */
  js: string;
  backend: BackendChoice;
  /** Epoch milliseconds (timeOrigin + now) when the run started; event times are relative to it. */
  runStart: number;
  /** Tensor bytes this rank may hold (see memory-budget.ts). */
  tensorBudgetBytes: number;
  /** Log messages the page has taken in, per rank (see log-pacer.ts). */
  logCounters: Int32Array;
  /** Ranks of this run on this rank's worker (logical ranks, rank-host.ts); 1 or absent: the worker is its own. */
  hosted?: number;
  /** In a world whose workers host several ranks: the ranks on this rank's worker (collectives among them need no shared memory). */
  threadRanks?: number[];
  /** The simulated cluster, in a run in virtual time: resolved once by the cluster at run start. */
  cluster?: ResolvedCluster;
  /** Events go here, in order (log lines as arrays of events); the last one a rank sends is its `exit`. */
  events: MessagePort;
}

/** The API every rank worker exposes over comlink. */
export interface RankApi {
  /**
   * Loads tfjs and initialises the backend before any program exists, so a later run() starts at once.
   * Never rejects: a failure is reported by the run that follows, as it would be without this step.
   * `world` is the shared memory of the one run this worker serves, handed over here, once a worker, not in
   * each rank's start: every copy of a WebAssembly.Memory posted to a worker arrives as a new object, and
   * Chromium's V8 counts each one's whole size (110 MB at 1,024 ranks) as the worker's external memory, so
   * 512 copies made it run a full garbage collection for every rank started (35 s of a 60 s run).
   */
  prepare(backend: BackendChoice, world: SharedWorld): Promise<void>;
  run(start: RankStart): Promise<void>;
}

/** How a platform (browser worker or Node worker thread) gives a rank its tfjs backend. */
export interface BackendPlatform {
  select(
    tf: typeof import('@tensorflow/tfjs'),
    choice: BackendChoice,
  ): Promise<{ backend: Backend; reason?: string }>;
  /** What the rank prints before `source` runs about names the platform took out of its scope (seal-browser-scope.ts). */
  sealedNotice?(source: string): string | null;
}

export type EmitEvent = (e: ClusterEvent) => void;
