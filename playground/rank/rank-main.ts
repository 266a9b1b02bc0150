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
import { loadProgram, programLocation } from './compile.ts';
import { captureLogArgs, formatLogArgs, formatLogArgsNow } from './format-log.ts';
import { lockIntrinsics } from './lock-intrinsics.ts';
import { chargeKernels } from './kernel-charging.ts';
import type { RankSimulation } from '../collectives/rank-simulation.ts';
import { LogPacer } from './log-pacer.ts';
import { setPlotSink } from './plot-api.ts';
import { enforceTensorBudget, MemoryBudgetError } from './memory-budget.ts';
import * as ranksModule from './ranks-module.ts';
import type { BackendPlatform, RankStart } from './rank-protocol.ts';

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

/** Warms a worker that has no program yet (see RankApi.prepare); errors wait for the run to report them. */
export async function prepareRank(choice: BackendChoice, platform: BackendPlatform): Promise<void> {
  await prepareBackend(choice, platform).catch(() => {});
}

/** Runs the reader's program as one rank: picks a backend, joins the shared world, streams output, reports exit. */
export async function runRank(start: RankStart, platform: BackendPlatform): Promise<void> {
  const { rank, events } = start;
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
      .then(async () =>
        emit({ type: 'log', rank, level, text: await formatLogArgs(captured, tf), time }),
      )
      .catch(() => {})
      .finally(() => {
        pendingLogs--;
      });
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
  setPlotSink((p) => {
    plotted.push({ rank, ...p });
    if (plotted.length >= 256) flushPlot();
    else plotTimer ??= setTimeout(flushPlot, PLOT_FLUSH_MS);
  }, rank);
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
  const onUnhandled = (reason: unknown) => fail(reason);
  const proc = (globalThis as { process?: { on(event: string, cb: (r: unknown) => void): void } })
    .process;
  if (proc?.on) proc.on('unhandledRejection', onUnhandled);
  else
    globalThis.addEventListener?.('unhandledrejection', (e) => {
      e.preventDefault();
      onUnhandled(e.reason);
    });
  let ok = false;
  try {
    const chosen = await prepareBackend(start.backend, platform);
    emit({
      type: 'backend',
      rank,
      backend: chosen.backend,
      ...(chosen.reason ? { reason: chosen.reason } : {}),
    });
    // Over budget, the rank reports and exits at once: a catch in the program cannot keep it running.
    enforceTensorBudget(tf, rank, start.tensorBudgetBytes, (error) => {
      fail(error);
      emit({ type: 'exit', rank, ok: false, time: now() });
    });
    const joined = await joinWorld(start.world, rank, {
      tf,
      backend: chosen.backend,
      now,
      onTrace: (e) => {
        trace.push(e);
        if (trace.length >= 256) flushTrace();
      },
      onNotice: (text) => emit({ type: 'log', rank, level: 'warn', text, time: now() }),
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
      chargeKernels(tf, sim);
      if (sim.diesNow) await sim.onDeath(0);
    }
    setCurrentRank(joined.dist);
    for (const level of LEVELS) console[level] = (...args: unknown[]) => log(level, args);
    console.debug = (...args: unknown[]) => log('log', args);
    const modules: Record<string, unknown> = { '@tensorflow/tfjs': tf, ranks: ranksModule };
    const require = (spec: string) => {
      if (!(spec in modules))
        throw new Error(
          `Cannot import '${spec}': only '@tensorflow/tfjs' and 'ranks' are available`,
        );
      return modules[spec];
    };
    // A blob:/data: module, not eval: the page's CSP has no 'unsafe-eval'. Its body only defines the function.
    const program = await loadProgram(start.js);
    performance.mark?.(`ranks:program rank ${rank}`); // the reader's program starts (see cluster-core.ts)
    lockIntrinsics();
    const module = { exports: {} };
    await program(require, module.exports, module);
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
