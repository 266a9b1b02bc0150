import * as Comlink from 'comlink';
import { abortSharedWorld, createSharedWorld, type SharedWorld } from '../collectives/shared-world.ts';
import { compileProgram, CompileError } from '../rank/compile.ts';
import { createLogCounters, logMessageTaken } from '../rank/log-pacer.ts';
import { tensorBudgetPerRank } from '../rank/memory-budget.ts';
import type { RankApi } from '../rank/rank-protocol.ts';
import type { ClusterEvent, RunningCluster, RunOptions, RunResult } from './protocol.ts';

export const MAX_WORLD_SIZE = 16;
export const DEFAULT_TIMEOUT_MS = 60_000;

/** One started rank worker, whichever platform made it. */
export interface RankWorker {
  api: Comlink.Remote<RankApi>;
  terminate(): void;
}

/** What differs between the browser and Node: how a worker is made and how a crash is reported. */
export interface WorkerPlatform {
  spawn(rank: number, onCrash: (message: string) => void): RankWorker;
}

const epochNow = () => performance.timeOrigin + performance.now();

/** Validates options, compiles once, starts every rank, and settles when all exit, one fails hard, time runs out, or stop(). */
export function startClusterOn(platform: WorkerPlatform, options: RunOptions, onEvent: (e: ClusterEvent) => void): RunningCluster {
  const runStart = epochNow();
  const elapsed = () => epochNow() - runStart;
  const { worldSize, backend = 'auto', timeoutMs = DEFAULT_TIMEOUT_MS } = options;
  if (!Number.isInteger(worldSize) || worldSize < 1 || worldSize > MAX_WORLD_SIZE) {
    throw new Error(`worldSize must be an integer from 1 to ${MAX_WORLD_SIZE}, got ${worldSize}`);
  }
  if (!['auto', 'webgpu', 'wasm', 'cpu'].includes(backend)) throw new Error(`backend must be 'auto', 'webgpu', 'wasm' or 'cpu', got '${backend}'`);

  let js: string;
  try {
    js = compileProgram(options.code, options.checks);
  } catch (e) {
    const err = e instanceof CompileError ? e : new CompileError(String(e));
    const error = { message: err.message, line: err.line, column: err.column };
    return { done: Promise.resolve({ ok: false, reason: 'compile-error', error, durationMs: elapsed() }), stop() {} };
  }

  // `let`: a finished run drops its shared memory and the page's handler, whatever still holds these closures.
  let world: SharedWorld | undefined = createSharedWorld(worldSize);
  const shared = world;
  const logCounters = createLogCounters(worldSize);
  const workers: RankWorker[] = [];
  const ports: MessagePort[] = [];
  const exited = new Map<number, boolean>();
  let settle!: (r: RunResult) => void;
  let finished = false;
  const done = new Promise<RunResult>((resolve) => { settle = resolve; });

  const finish = (reason: RunResult['reason'], error?: RunResult['error']) => {
    if (finished) return;
    finished = true;
    clearTimeout(timer);
    for (const w of workers) w.terminate();
    for (const p of ports) p.close(); // a started port with a listener lives until closed, and holds this run
    workers.length = 0;
    ports.length = 0;
    world = undefined;
    onEvent = () => {};
    const ok = reason === 'finished' && [...exited.values()].every(Boolean);
    settle({ ok, reason: reason === 'finished' && !ok ? 'error' : reason, ...(error ? { error } : {}), durationMs: elapsed() });
  };
  const rankExited = (rank: number, ok: boolean) => {
    if (exited.has(rank)) return;
    exited.set(rank, ok);
    // A failed rank poisons the world so peers blocked in collectives fail now, not at their watchdog.
    if (!ok && world) abortSharedWorld(world, `rank ${rank} failed`);
    if (exited.size === worldSize) finish('finished');
  };
  const forward = (e: ClusterEvent) => {
    if (finished) return;
    onEvent(e);
    if (e.type === 'exit') rankExited(e.rank, e.ok);
  };

  const timer = setTimeout(() => {
    const message = `Stopped after ${Math.round(timeoutMs / 1000)} s: the run hit its time limit (an endless loop, or a rank waiting for a collective its peers never call).`;
    for (let r = 0; r < worldSize; r++) if (!exited.has(r)) forward({ type: 'error', rank: r, message, time: elapsed() });
    finish('timeout', { message });
  }, timeoutMs);

  for (let rank = 0; rank < worldSize; rank++) {
    const crash = (message: string) => {
      forward({ type: 'error', rank, message: `rank ${rank} crashed: ${message}`, time: elapsed() });
      forward({ type: 'exit', rank, ok: false, time: elapsed() });
    };
    const worker = platform.spawn(rank, crash);
    workers.push(worker);
    const channel = new MessageChannel();
    channel.port1.addEventListener('message', (m: MessageEvent) => {
      if (!Array.isArray(m.data)) return forward(m.data as ClusterEvent);
      logMessageTaken(logCounters, rank); // a batch of log lines (see log-pacer.ts)
      for (const e of m.data as ClusterEvent[]) forward(e);
    });
    channel.port1.start();
    ports.push(channel.port1);
    worker.api.run(Comlink.transfer({ world: shared, rank, js, backend, runStart, logCounters, tensorBudgetBytes: tensorBudgetPerRank(worldSize, options.tensorBudgetBytes), events: channel.port2 }, [channel.port2])).catch((e: unknown) => {
      if (!finished) crash(e instanceof Error ? e.message : String(e));
    });
  }

  return { done, stop: () => finish('stopped') };
}
