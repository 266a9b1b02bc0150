import * as Comlink from 'comlink';
import {
  abortSharedWorld,
  createSharedWorld,
  type SharedWorld,
} from '../collectives/shared-world.ts';
import {
  BACKEND_CHOICES,
  DEFAULT_TIMEOUT_MS,
  checkWorldSize,
  isOneOf,
  listWords,
  type BackendChoice,
  type ClusterEvent,
  type RunOptions,
  type RunResult,
} from '../contract/protocol.ts';
import { compileProgram, CompileError } from '../rank/compile.ts';
import { createLogCounters, logMessageTaken } from '../rank/log-pacer.ts';
import { tensorBudgetPerRank } from '../rank/memory-budget.ts';
import type { RankApi } from '../rank/rank-protocol.ts';
import type { RunningCluster } from './protocol.ts';
import { eventFromRank } from './rank-events.ts';
import { RunRecord } from './run-record.ts';
import { describeShape, resolveCluster } from '../simulation/index.ts';

export { DEFAULT_TIMEOUT_MS, MAX_WORLD_SIZE } from '../contract/protocol.ts';

/** After a rank failed, how long the others get to report their own exit before the run ends without them. */
export const FAILURE_GRACE_MS = 2000;

/** One started rank worker, whichever platform made it. */
export interface RankWorker {
  api: Comlink.Remote<RankApi>;
  terminate(): void;
}

/** What differs between the browser and Node: how a worker is made and how a crash is reported. */
export interface WorkerPlatform {
  /** A worker for ranks `rank` to `rank + count - 1` (count 1: a worker of its own). */
  spawn(rank: number, onCrash: (message: string) => void, count?: number): RankWorker;
}

const machineCores = () =>
  (globalThis as { navigator?: { hardwareConcurrency?: number } }).navigator?.hardwareConcurrency ??
  1;

/**
 * How many workers host a world: one rank a worker up to the machine's cores (or `limit`), beyond that
 * logical ranks share them (rank/rank-host.ts), since more threads than cores only add memory and start-up.
 */
export function hostWorkers(worldSize: number, limit?: number): number {
  return Math.max(1, Math.min(worldSize, Math.floor(limit ?? machineCores())));
}

/** The worker that hosts `rank`: contiguous blocks, so a node's ranks share as few workers as they can. */
export const hostOf = (rank: number, worldSize: number, workers: number) =>
  Math.floor((rank * workers) / worldSize);

/**
 * Rank workers started before their program (warm ranks): spawned, tfjs and the backend initialising, the
 * shared memory allocated. A run claims them; each set serves one run, so no state leaks from run to run.
 */
export interface PreparedRanks {
  readonly worldSize: number;
  /** Workers hosting the world (see hostWorkers). */
  readonly workers: number;
  readonly backend: BackendChoice;
  /** Resolves when every rank has loaded and initialised its backend, or the set broke or was terminated. */
  readonly ready: Promise<void>;
  /** A rank crashed or failed to load before any run claimed the set: it is ended, and a run must not take it. */
  readonly broken: boolean;
  /** Hands over all workers and the shared memory, routing each rank's crash (even an earlier one) to onCrash. */
  claim(onCrash: (rank: number, message: string) => void): {
    world: SharedWorld;
    /** Each rank's worker once prepared; rejects if the set was terminated before that rank was ready. */
    spawned: Promise<RankWorker>[];
    /** How many ranks share each rank's worker. */
    hosted: number[];
    /** The ranks on each rank's worker. */
    threadRanks: number[][];
    /** Terminates every worker of the set at once, started or still loading. */
    terminate(): void;
  };
  /** Terminates the workers unless a run claimed them. */
  dispose(): void;
}

/** Spawns and prepares a world of ranks before their program exists; see PreparedRanks. */
export function prepareRanksOn(
  platform: WorkerPlatform,
  worldSize: number,
  backend: BackendChoice,
  workerLimit?: number,
): PreparedRanks {
  checkWorld(worldSize, backend);
  const workerCount = hostWorkers(worldSize, workerLimit);
  const ranksOn: number[][] = Array.from({ length: workerCount }, () => []);
  for (let r = 0; r < worldSize; r++) ranksOn[hostOf(r, worldSize, workerCount)]!.push(r);
  const world = createSharedWorld(worldSize);
  const crashes: (string | undefined)[] = [];
  let onCrash: ((rank: number, message: string) => void) | undefined;
  let claimed = false;
  let terminated = false;
  const workers: RankWorker[] = [];
  let endSet!: () => void;
  const ended = new Promise<void>((resolve) => (endSet = resolve));
  const terminate = () => {
    terminated = true;
    endSet();
    for (const w of workers) w.terminate();
  };
  // All at once: the HTTP cache (and the service worker) answer the second to fourth rank's requests
  // for the scripts and WASM the first is fetching (one network fetch each, checked by the cold-Run e2e test),
  // and the ranks parse and initialise together, so a rank's output never lands while its peers still start up.
  const spawnOrEnd: WorkerPlatform['spawn'] = (rank, onRankCrash, count) => {
    try {
      return count === 1
        ? platform.spawn(rank, onRankCrash)
        : platform.spawn(rank, onRankCrash, count);
    } catch (e) {
      // The ranks already spawned would outlive a set that never forms (their pending prepares just drop).
      for (const w of workers) w.terminate();
      throw e;
    }
  };
  const perWorker = ranksOn.map((ranks): Promise<RankWorker> => {
    // A worker's crash is the crash of every rank it hosts.
    const worker = spawnOrEnd(
      ranks[0]!,
      (message) => {
        if (onCrash) return ranks.forEach((rank) => onCrash!(rank, message));
        // Warm and unclaimed (a network blip while loading in the background): end the set, so the next Run
        // starts fresh workers instead of inheriting the failure, and `ready` settles.
        for (const rank of ranks) crashes[rank] ??= message;
        terminate();
      },
      ranks.length,
    );
    workers.push(worker);
    return Promise.race([
      worker.api.prepare(backend, world).then(() => worker),
      // A terminated worker never answers: the set's end settles its ranks.
      ended.then(() => Promise.reject(new Error('the run ended before this rank was ready'))),
    ]);
  });
  const spawned = Array.from(
    { length: worldSize },
    (_, rank) => perWorker[hostOf(rank, worldSize, workerCount)]!,
  );
  const hosted = Array.from(
    { length: worldSize },
    (_, rank) => ranksOn[hostOf(rank, worldSize, workerCount)]!.length,
  );
  const threadRanks = Array.from(
    { length: worldSize },
    (_, rank) => ranksOn[hostOf(rank, worldSize, workerCount)]!,
  );
  // A rank that cannot prepare still counts as ready: its run reports the failure.
  const ready = Promise.allSettled(spawned).then(() => void mark('ranks:prepared'));
  return {
    worldSize,
    workers: workerCount,
    backend,
    ready,
    get broken() {
      return !claimed && crashes.some((m) => m !== undefined);
    },
    claim(handler) {
      if (claimed || terminated) throw new Error('warm ranks serve one run');
      claimed = true;
      onCrash = handler;
      // Reported after claim() returns, so the run holds its claim before it hears of a crash.
      queueMicrotask(() =>
        crashes.forEach((message, rank) => message !== undefined && handler(rank, message)),
      );
      return { world, spawned, hosted, threadRanks, terminate };
    },
    dispose() {
      if (!claimed) terminate();
    },
  };
}

function checkWorld(worldSize: number, backend: BackendChoice): void {
  checkWorldSize(worldSize);
  if (!isOneOf(BACKEND_CHOICES, backend))
    throw new Error(`backend must be ${listWords(BACKEND_CHOICES)}, got '${backend}'`);
}

const epochNow = () => performance.timeOrigin + performance.now();
/** Longest task spent handing ranks their program at a run's start (a 1,024-rank world takes several). */
const HAND_OVER_SLICE_MS = 30;
const mark = (name: string) => globalThis.performance.mark?.(name);

/**
 * Drops earlier runs' marks (a warm set's 'ranks:prepared' too): the timeline keeps every mark until cleared,
 * and a run adds one per rank ('ranks:handed rank r'), so 100 runs of 1,024 ranks would hold 102,400.
 */
function clearEarlierMarks(): void {
  const p = globalThis.performance;
  if (!p?.getEntriesByType || !p.clearMarks) return;
  const names = new Set(p.getEntriesByType('mark').map((m) => m.name));
  for (const name of names) if (name.startsWith('ranks:')) p.clearMarks(name);
}

/** The last program compiled (or compiled ahead): a Run of the code warmed for skips the compiler. */
let lastCompiled: { code: string; checks: string | undefined; js: string } | undefined;

/** Compiles a program (see compile.ts), reusing the last result for the same code and checks. */
function compileOnce(code: string, checks: string | undefined): string {
  if (lastCompiled?.code === code && lastCompiled.checks === checks) return lastCompiled.js;
  const js = compileProgram(code, checks);
  lastCompiled = { code, checks, js };
  return js;
}

/**
 * Compiles the program a Run is expected to run while the page is idle, so the Run itself does not wait
 * for the compiler (its first call also pays for its own start-up). A program with errors is left to the Run.
 */
export function compileAhead(code: string, checks?: string): void {
  try {
    compileOnce(code, checks);
  } catch {
    // the Run reports it
  }
}

/**
 * Validates options, compiles once, starts every rank, and settles when all exit, one fails hard, time runs
 * out, or stop(). Nothing here ever waits on shared memory: a rank can write any of it. `takePrepared` is
 * asked, once the program compiled, for warm ranks of this world size and backend; without them it spawns.
 */
export function startClusterOn(
  platform: WorkerPlatform,
  options: RunOptions,
  onEvent: (e: ClusterEvent) => void,
  takePrepared?: (worldSize: number, backend: BackendChoice) => PreparedRanks | undefined,
): RunningCluster {
  const runStart = epochNow();
  clearEarlierMarks();
  mark('ranks:run'); // marks (here and in rank-main.ts) let a profile split a Run's latency into its steps
  const elapsed = () => epochNow() - runStart;
  const { worldSize, backend = 'auto', timeoutMs = DEFAULT_TIMEOUT_MS } = options;
  checkWorld(worldSize, backend);
  // Resolved once here, at run start, for the CLI and the page alike (simulation/cluster-options.ts); every
  // rank receives it in its start message and never resolves it again.
  const cluster = options.cluster ? resolveCluster(options.cluster) : undefined;
  if (cluster) {
    const { shape, world } = cluster;
    if (world !== worldSize)
      throw new Error(
        `cluster ${describeShape(shape)} has ${world} GPUs, but worldSize is ${worldSize}`,
      );
  }
  const record = new RunRecord(worldSize, options.cluster ?? null);

  let js: string;
  try {
    js = compileOnce(options.code, options.checks);
  } catch (e) {
    const err = e instanceof CompileError ? e : new CompileError(String(e));
    const error = { message: err.message, line: err.line, column: err.column };
    const result: RunResult = { ok: false, reason: 'compile-error', error, durationMs: elapsed() };
    record.finish(result);
    return { done: Promise.resolve(result), stop() {}, record };
  }

  const prepared =
    takePrepared?.(worldSize, backend) ??
    prepareRanksOn(platform, worldSize, backend, options.workers);
  // `let`: a finished run drops its shared memory and the page's handler, whatever still holds these closures.
  let world: SharedWorld | undefined;
  const logCounters = createLogCounters(worldSize);
  const ports: MessagePort[] = [];
  const exited = new Map<number, boolean>();
  let settle!: (r: RunResult) => void;
  let finished = false;
  let graceTimer: ReturnType<typeof setTimeout> | undefined;
  const done = new Promise<RunResult>((resolve) => {
    settle = resolve;
  });

  const finish = (reason: RunResult['reason'], error?: RunResult['error']) => {
    if (finished) return;
    finished = true;
    clearTimeout(timer);
    clearTimeout(graceTimer);
    claimed.terminate();
    for (const p of ports) p.close(); // a started port with a listener lives until closed, and holds this run
    ports.length = 0;
    world = undefined;
    onEvent = () => {};
    const ok = reason === 'finished' && [...exited.values()].every(Boolean);
    const result: RunResult = {
      ok,
      reason: reason === 'finished' && !ok ? 'error' : reason,
      ...(error ? { error } : {}),
      durationMs: elapsed(),
    };
    record.finish(result);
    settle(result);
  };
  const forward = (e: ClusterEvent) => {
    if (finished) return;
    record.add(e);
    onEvent(e);
    if (e.type === 'exit') rankExited(e.rank, e.ok);
  };
  /** Ranks still running when the run ends get an error line saying why they were stopped. */
  const endStragglers = (message: string) => {
    for (let r = 0; r < worldSize; r++)
      if (!exited.has(r)) forward({ type: 'error', rank: r, message, time: elapsed() });
  };
  const rankExited = (rank: number, ok: boolean) => {
    if (exited.has(rank)) return;
    exited.set(rank, ok);
    if (exited.size === worldSize) return finish('finished');
    if (ok || graceTimer) return;
    // A failed rank poisons the world so peers blocked in collectives fail now, not at their watchdog...
    if (world) abortSharedWorld(world, `rank ${rank} failed`);
    // ...and a peer busy outside any collective (a loop that never calls one) cannot hold the run open.
    graceTimer = setTimeout(() => {
      endStragglers(
        `Stopped ${(FAILURE_GRACE_MS / 1000).toFixed(0)} s after rank ${rank} failed: this rank was still running outside any collective (busy computing, or in an endless loop), so it never saw the failure.`,
      );
      finish('error');
    }, FAILURE_GRACE_MS);
  };

  const timer = setTimeout(() => {
    const message = `Stopped after ${Math.round(timeoutMs / 1000)} s: the run hit its time limit (an endless loop, or a rank waiting for a collective its peers never call).`;
    endStragglers(message);
    finish('timeout', { message });
  }, timeoutMs);

  const crash = (rank: number, message: string) => {
    if (exited.has(rank)) return;
    forward({ type: 'error', rank, message: `rank ${rank} crashed: ${message}`, time: elapsed() });
    forward({ type: 'exit', rank, ok: false, time: elapsed() });
  };
  const claimed = prepared.claim(crash);
  world = claimed.world;
  const startRank = (rank: number, worker: RankWorker) => {
    if (finished) return;
    // One channel per rank: whatever arrives on it speaks for this rank, whatever the message claims.
    const channel = new MessageChannel();
    channel.port1.addEventListener('message', (m: MessageEvent) => {
      const take = (data: unknown) => {
        const e = eventFromRank(data, rank);
        if (e) forward(e);
      };
      if (!Array.isArray(m.data)) return take(m.data);
      logMessageTaken(logCounters, rank); // a batch of log lines (see log-pacer.ts)
      for (const data of m.data as unknown[]) take(data);
    });
    channel.port1.start();
    ports.push(channel.port1);
    mark(`ranks:handed rank ${rank}`);
    worker.api
      .run(
        Comlink.transfer(
          {
            rank,
            js,
            backend,
            runStart,
            logCounters,
            tensorBudgetBytes: tensorBudgetPerRank(worldSize, options.tensorBudgetBytes),
            hosted: claimed.hosted[rank]!,
            // Every rank of a world that shares workers, so all take the same collective paths.
            ...(claimed.hosted.some((h) => h > 1)
              ? { threadRanks: claimed.threadRanks[rank]! }
              : {}),
            ...(cluster ? { cluster } : {}),
            events: channel.port2,
          },
          [channel.port2],
        ),
      )
      .catch((e: unknown) => {
        if (!finished) crash(rank, e instanceof Error ? e.message : String(e));
      });
  };
  // A worker's ranks are handed their program in slices of at most HAND_OVER_SLICE_MS, a task each: 512
  // ranks sharing a worker resolve together, and one task handing them all over blocked the page ≈ 0.4 s.
  const handOver: [number, RankWorker][] = [];
  const drain = () => {
    const until = performance.now() + HAND_OVER_SLICE_MS;
    while (handOver.length && performance.now() < until) startRank(...handOver.shift()!);
    if (handOver.length) setTimeout(drain, 0);
  };
  const queueStart = (rank: number, worker: RankWorker) => {
    if (handOver.push([rank, worker]) === 1) setTimeout(drain, 0);
  };
  claimed.spawned.forEach((spawnedWorker, rank) =>
    spawnedWorker.then(
      (worker) => queueStart(rank, worker),
      (e: unknown) => {
        if (!finished) crash(rank, e instanceof Error ? e.message : String(e));
      },
    ),
  );

  return { done, stop: () => finish('stopped'), record };
}
