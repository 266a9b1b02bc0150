import * as tf from '@tensorflow/tfjs';
import { joinWorld } from '../collectives/create-dist.ts';
import { compileReduceKernel } from '../collectives/kernel/reduce-kernel.ts';
import type { RankCollectives } from '../collectives/rank-collectives.ts';
import { setCurrentRank } from '../collectives/rank-context.ts';
import {
  LOG_LEVELS,
  type Backend,
  type BackendChoice,
  type ClusterEvent,
  type PlotPoint,
  type TraceEvent,
} from '../contract/protocol.ts';
import { loadProgram, programBody, programLocation } from './compile.ts';
import { captureLogArgs, formatLogArgs, formatLogArgsNow } from './format-log.ts';
import { lockIntrinsics } from './lock-intrinsics.ts';
import { chargeKernels } from './kernel-charging.ts';
import type { RankSimulation } from '../simulation/rank-simulation.ts';
import type { SharedWorld } from '../collectives/shared-world.ts';
import { LogPacer } from './log-pacer.ts';
import { setPlotSink } from './plot-api.ts';
import { enforceTensorBudget, MemoryBudgetError } from './memory-budget.ts';
import * as ranksModule from './ranks-module.ts';
import { ownThreadScope, RankHost, type Turn } from './rank-host.ts';
import type { BackendPlatform, RankStart } from './rank-protocol.ts';
import { PeerLiveness } from '../collectives/peer-liveness.ts';

const LEVELS = LOG_LEVELS;
const PLOT_FLUSH_MS = 200;

type ChosenBackend = { backend: Backend; reason?: string };
let prepared: { choice: BackendChoice; chosen: Promise<ChosenBackend> } | undefined;

/** Picks and initialises this worker's tfjs backend once; a run with the same choice reuses it. */
function prepareBackend(choice: BackendChoice, platform: BackendPlatform): Promise<ChosenBackend> {
  if (prepared?.choice !== choice)
    prepared = {
      choice,
      chosen: quietly(async () => {
        const [picked] = await Promise.all([platform.select(tf, choice), compileReduceKernel()]);
        tf.scalar(0).dispose(); // the first write prints tfjs's "running in Node.js" banner: let it happen here, muted
        return picked;
      }),
    };
  return prepared.chosen;
}

/** The shared memory of the run this worker serves, one object for all its ranks (see RankApi.prepare). */
let threadWorld: SharedWorld | undefined;

/** Warms a worker that has no program yet (see RankApi.prepare); errors wait for the run to report them. */
export async function prepareRank(
  choice: BackendChoice,
  world: SharedWorld,
  platform: BackendPlatform,
): Promise<void> {
  threadWorld = world;
  await prepareBackend(choice, platform).catch(() => {});
}

/** The ranks this thread hosts take turns through one host (a worker serves one run). */
let host: RankHost | undefined;
/** How each running rank of this thread fails on an error nobody caught; see `onUnhandled`. */
const failers = new Map<number, (reason: unknown) => void>();
let rejectionsWatched = false;

/**
 * A rejection nobody handled belongs to the rank whose code ran last: the only one that runs, when ranks
 * share the thread (rank-host.ts), and the one there is otherwise.
 */
function watchRejections(): void {
  if (rejectionsWatched) return;
  rejectionsWatched = true;
  const onUnhandled = (reason: unknown) => {
    const holder = host?.holder?.rank;
    const fail = (holder !== undefined && failers.get(holder)) || failers.values().next().value;
    fail?.(reason);
  };
  const proc = (globalThis as { process?: { on(event: string, cb: (r: unknown) => void): void } })
    .process;
  if (proc?.on) proc.on('unhandledRejection', onUnhandled);
  else
    globalThis.addEventListener?.('unhandledrejection', (e) => {
      e.preventDefault();
      onUnhandled(e.reason);
    });
}

type EngineWithState = { state: object };
type ReadingEngine = { read(dataId: unknown): Promise<unknown> };
let readsGated = false;

/**
 * A tensor read (data(), array()) resumes its rank only on that rank's turn: a WebGPU readback settles in a
 * later task, when another rank may hold the thread. (CPU and WASM reads settle at once, still on the turn.)
 */
function gateReads(host: RankHost): void {
  if (readsGated) return;
  readsGated = true;
  const engine = tf.engine() as unknown as ReadingEngine;
  const read = engine.read.bind(engine);
  engine.read = (dataId: unknown) => {
    const turn = host.holder;
    const p = read(dataId);
    if (!turn) return p;
    return p.then(
      (v) => host.acquire(turn).then(() => v),
      (e: unknown) =>
        host.acquire(turn).then(() => {
          throw e;
        }),
    );
  };
}

/** A tfjs engine state of its own (variables, tensor counts, scopes), for a rank that shares the thread. */
function ownEngineState(): () => void {
  const engine = tf.engine() as unknown as EngineWithState;
  const State = engine.state.constructor as new () => object;
  const state = new State();
  return () => {
    engine.state = state;
  };
}

let tfModuleObject: object | undefined;
/**
 * tfjs as `import` in a program sees it: marked as an ES module, so the compiled import takes it as it is
 * instead of copying its thousand exports for every rank (seconds at 1,024 ranks); frozen like a module
 * namespace, so no rank changes what its thread-mates import.
 */
function tfModule(): object {
  return (tfModuleObject ??= Object.freeze({ ...tf, default: tf, __esModule: true }));
}

/** The last program this thread scanned for sealed names: its logical ranks all run the same one. */
let scanned: { js: string; note: string | null } | undefined;
function sealedNoticeOf(js: string, platform: BackendPlatform): string | null {
  if (scanned?.js !== js) scanned = { js, note: platform.sealedNotice?.(programBody(js)) ?? null };
  return scanned.note;
}

/** Runs the reader's program as one rank: picks a backend, joins the shared world, streams output, reports exit. */
export async function runRank(start: RankStart, platform: BackendPlatform): Promise<void> {
  const { rank, events } = start;
  // Ranks sharing this thread take turns (rank-host.ts); a rank with the thread to itself installs its globals once.
  const hosted = (start.hosted ?? 1) > 1;
  if (hosted) host ??= new RankHost();
  const installs: (() => void)[] = hosted ? [ownEngineState()] : [];
  const turn: Turn = { rank, enter: () => installs.forEach((install) => install()) };
  host?.join(turn);
  const resume = hosted ? () => host!.acquire(turn) : undefined;
  performance.mark?.(`ranks:received rank ${rank}`);
  const now = () => performance.timeOrigin + performance.now() - start.runStart;
  const pacer = new LogPacer(start.logCounters, rank, (lines) => events.postMessage(lines));
  const emit = (e: ClusterEvent) => {
    if (e.type === 'log') return pacer.push(e);
    pacer.flush();
    events.postMessage(e);
  };
  // Logs format asynchronously (tensors are read with data()); a chain keeps them in call order.
  let logChain: Promise<void> = Promise.resolve();
  let pendingLogs = 0;
  const log = (level: (typeof LEVELS)[number], args: unknown[]) => {
    const time = now();
    const text = pendingLogs === 0 ? formatLogArgsNow(args, tf) : undefined;
    if (text !== undefined) return emit({ type: 'log', rank, level, text, time });
    pendingLogs++;
    const captured = captureLogArgs(args, tf);
    logChain = logChain
      .then(async () => {
        await resume?.(); // the clones belong to this rank's engine state
        emit({ type: 'log', rank, level, text: await formatLogArgs(captured, tf), time });
      })
      .catch(() => {})
      .finally(() => {
        pendingLogs--;
      });
  };
  /** This rank's console methods: installed on the thread's console at each turn, and kept in the program's scope. */
  const rankConsole: Partial<Console> = {
    ...Object.fromEntries(LEVELS.map((level) => [level, (...args: unknown[]) => log(level, args)])),
    debug: (...args: unknown[]) => log('log', args),
  };
  const trace: TraceEvent[] = [];
  const flushTrace = () => {
    if (trace.length) emit({ type: 'trace', rank, events: trace.splice(0) });
  };
  // Plot points go out in batches: at most every PLOT_FLUSH_MS, so a chart grows while the program runs.
  const plotted: PlotPoint[] = [];
  let plotTimer: ReturnType<typeof setTimeout> | undefined;
  const flushPlot = () => {
    clearTimeout(plotTimer);
    plotTimer = undefined;
    if (plotted.length) emit({ type: 'plot', rank, points: plotted.splice(0) });
  };
  const plotSink = (p: Omit<PlotPoint, 'rank'>) => {
    plotted.push({ rank, ...p });
    if (plotted.length >= 256) flushPlot();
    else plotTimer ??= setTimeout(flushPlot, PLOT_FLUSH_MS);
  };
  installs.push(() => setPlotSink(plotSink, rank));
  let comm: RankCollectives | undefined;
  let sim: RankSimulation | null = null;
  const fail = (error: unknown) => {
    const message =
      error instanceof Error
        ? `${error.name === 'Error' ? '' : `${error.name}: `}${error.message}`
        : `uncaught: ${String(error)}`;
    emit({ type: 'error', rank, message, ...programLocation(error), time: now() });
    // Peers waiting in a collective for this rank must not hang: poison the world with the reason.
    comm?.abort(`rank ${rank} failed: ${message}`);
  };
  failers.set(rank, fail);
  watchRejections();
  let ok = false;
  try {
    const chosen = await prepareBackend(start.backend, platform);
    if (hosted) gateReads(host!);
    emit({
      type: 'backend',
      rank,
      backend: chosen.backend,
      ...(chosen.reason ? { reason: chosen.reason } : {}),
    });
    // Over budget, the rank reports and exits at once: a catch in the program cannot keep it running.
    installs.push(
      enforceTensorBudget(tf, rank, start.tensorBudgetBytes, (error) => {
        fail(error);
        emit({ type: 'exit', rank, ok: false, time: now() });
      }),
    );
    if (!threadWorld)
      throw new Error('this rank worker was never given its world (RankApi.prepare)');
    const joined = await joinWorld(threadWorld, rank, {
      tf,
      backend: chosen.backend,
      now,
      onTrace: (e) => {
        trace.push(e);
        if (trace.length >= 256) flushTrace();
      },
      onNotice: (text) => emit({ type: 'log', rank, level: 'warn', text, time: now() }),
      ...(resume ? { hosted: true, resume } : {}),
      ...(start.threadRanks ? { threadRanks: start.threadRanks } : {}),
      ...(start.cluster
        ? {
            simulation: {
              cluster: start.cluster,
              sinks: {
                trace: (events) => emit({ type: 'virtual-trace', rank, events }),
                step: (report) => emit({ type: 'virtual-step', rank, report }),
                notice: (text) => emit({ type: 'log', rank, level: 'warn', text, time: now() }),
              },
            },
          }
        : {}),
    });
    comm = joined.comm;
    sim = joined.sim;
    if (sim) {
      const engine = joined.comm.engine;
      // A planned death: the rank stops arriving anywhere; peers find out as a collective timeout.
      sim.onDeath = async (step) => {
        engine.markDead();
        sim!.finish();
        emit({
          type: 'log',
          rank,
          level: 'warn',
          text: `rank ${rank} stops at step ${step}: a simulated failure (deadRank)`,
          time: now(),
        });
        while (engine.sync.poisonReason() === null)
          await new Promise((resolve) => setTimeout(resolve, 20));
        throw new Error(`rank ${rank} died at step ${step} (a simulated failure)`);
      };
    }
    const { dist } = joined;
    const board = joined.comm.engine.board;
    if (hosted) {
      const lead = host!.lead!;
      board.shareThread(rank, lead);
      host!.showHolder ??= (holder) => board.setHolder(lead, holder);
    }
    installs.push(() => {
      chargeKernels(tf, sim);
      PeerLiveness.watchKernels(tf, board, rank);
      setCurrentRank(dist);
      Object.assign(console, rankConsole);
    });
    // 'ranks' with this rank's own `dist` (not the thread's current one), so code that wakes outside its turn
    // (a WebSocket or port event the host does not queue) still reads its own rank.
    const modules: Record<string, unknown> = {
      '@tensorflow/tfjs': tfModule(),
      ranks: Object.freeze({ ...ranksModule, dist, __esModule: true }),
    };
    const require = (spec: string) => {
      if (!(spec in modules))
        throw new Error(
          `Cannot import '${spec}': only '@tensorflow/tfjs' and 'ranks' are available`,
        );
      return modules[spec];
    };
    // A blob:/data: module, not eval: the page's CSP has no 'unsafe-eval'. Its body only defines the function.
    const program = await loadProgram(start.js);
    const sealed = sealedNoticeOf(start.js, platform);
    if (sealed) emit({ type: 'log', rank, level: 'warn', text: sealed, time: now() });
    // From here on only this rank's turn runs its code (at once, with the thread to itself).
    if (resume) await resume();
    else turn.enter();
    if (sim?.diesNow) await sim.onDeath!(0);
    performance.mark?.(`ranks:program rank ${rank}`); // the reader's program starts (see cluster-core.ts)
    lockIntrinsics();
    const module = { exports: {} };
    // The program's `console` is this rank's even when a callback the host does not queue (a WebSocket or
    // fetch event) runs its code outside its turn, while a thread-mate's globals are installed.
    const scope = {
      ...(hosted ? host!.scopeFor(turn) : ownThreadScope()),
      console: Object.assign(Object.create(console) as Console, rankConsole),
    };
    await program(require, module.exports, module, scope);
    ok = true;
  } catch (error) {
    if (!(error instanceof MemoryBudgetError)) fail(error); // already reported when the budget tripped
  }
  comm?.engine.markExited(); // a peer still waiting for this rank is told it exited (peer-liveness.ts)
  await logChain;
  sim?.finish();
  flushTrace();
  flushPlot();
  emit({ type: 'exit', rank, ok, time: now() });
  failers.delete(rank);
  host?.exit(turn);
}

/** Runs backend setup with console output muted: tfjs prints banners and probes we do not want in a rank's pane. */
async function quietly<T>(fn: () => Promise<T>): Promise<T> {
  const saved = { log: console.log, warn: console.warn, info: console.info };
  console.log = console.warn = console.info = () => {};
  try {
    return await fn();
  } finally {
    Object.assign(console, saved);
  }
}
