/**
 * The contract between a page (or the CLI) and a running cluster of ranks.
 * Everything the site's Playground shows arrives as one of these events.
 */
export type Backend = 'webgpu' | 'wasm' | 'cpu';
export type BackendChoice = Backend | 'auto';

export interface RunOptions {
  /** The reader's TypeScript program (ES module, top-level await allowed). */
  code: string;
  /** Number of ranks, 1..16. */
  worldSize: number;
  /** 'auto' tries WebGPU (real adapter only), then WASM, then CPU. */
  backend?: BackendChoice;
  /** Wall-clock limit for the whole run; default 60 000 ms. */
  timeoutMs?: number;
  /** Code appended after the reader's program on every rank (exercise checks). */
  checks?: string;
  /** Tensor bytes the whole run may hold, shared by its ranks; default 2 GiB (see rank/memory-budget.ts). */
  tensorBudgetBytes?: number;
}

/** One collective step, recorded by the runtime so the page can draw a timeline. */
export interface TraceEvent {
  rank: number;
  kind: 'allReduce' | 'reduceScatter' | 'allGather' | 'broadcast' | 'reduce' | 'scatter' | 'gather' | 'barrier' | 'send' | 'recv' | 'compute';
  algorithm?: string;
  step?: number;
  /** Peer rank for a ring step or point-to-point call. */
  peer?: number;
  bytes: number;
  /** Milliseconds since the run started (performance.now() based, shared origin across ranks). */
  start: number;
  end: number;
  label?: string;
}

export type ClusterEvent =
  | { type: 'backend'; rank: number; backend: Backend; reason?: string }
  | { type: 'log'; rank: number; level: 'log' | 'info' | 'warn' | 'error'; text: string; time: number }
  | { type: 'error'; rank: number; message: string; line?: number; column?: number; time: number }
  | { type: 'exit'; rank: number; ok: boolean; time: number }
  | { type: 'trace'; rank: number; events: TraceEvent[] };

/** A started run: `done` settles once every rank has exited, or the run was stopped or timed out. */
export interface RunningCluster {
  done: Promise<RunResult>;
  /** Terminates every rank worker at once. */
  stop(): void;
}

export interface RunResult {
  ok: boolean;
  reason: 'finished' | 'stopped' | 'timeout' | 'error' | 'compile-error';
  /** For compile errors: reported before any rank starts. */
  error?: { message: string; line?: number; column?: number };
  durationMs: number;
}
