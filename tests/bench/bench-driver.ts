// The main-thread side of the all-reduce benchmark (Node or browser): worlds, the postMessage relay, the table.
import { createSharedWorld, type SharedWorld } from '../../playground/collectives/shared-world.ts';
import type { BenchMessage, Method } from './bench-rank.ts';

/** Bytes of the memcpy baseline that does not fit the last-level cache (32 MB of L3 here). */
export const DRAM_MEMCPY_BYTES = 64 << 20;

export interface DriverPort {
  post(message: BenchMessage, transfer?: Transferable[]): void;
  onMessage(handler: (message: { type: string; [k: string]: unknown }) => void): void;
  terminate(): void;
}

export interface BenchRow {
  environment: string;
  ranks: number;
  method: Method | 'memcpy' | 'fresh-copy';
  bytes: number;
  iterations: number;
  /** Time of one all-reduce (slowest rank), microseconds. */
  us: number;
  /** GB/s: bytes / time. */
  algbw: number;
  /** GB/s: algbw · 2(n−1)/n, as nccl-tests reports. */
  busbw: number;
}

export interface BenchPlan {
  environment: string;
  worlds: number[];
  sizes: number[];
  methods: Method[];
  /** Bytes of work to aim for per measurement: more iterations for small payloads. */
  budgetBytes: number;
  spawn: (rank: number) => DriverPort;
  log: (line: string) => void;
}

export const iterationsFor = (bytes: number, ranks: number, budget: number) =>
  Math.max(3, Math.min(20000, Math.floor(budget / (bytes * ranks))));

/** One TypedArray.set of the payload: the memory-copy limit every all-reduce is compared with. */
export function measureMemcpy(bytes: number, budget: number): number {
  const src = new Float32Array(bytes >> 2).fill(1);
  const dst = new Float32Array(bytes >> 2);
  const iterations = Math.max(10, Math.min(20000, Math.floor(budget / bytes / 4)));
  for (let i = 0; i < 5; i++) dst.set(src);
  // Best of five trials: the copy limit, not the noise of the other processes on the machine.
  let best = Infinity;
  for (let trial = 0; trial < 5; trial++) {
    const t0 = performance.now();
    for (let i = 0; i < iterations; i++) dst.set(src);
    best = Math.min(best, ((performance.now() - t0) * 1000) / iterations);
  }
  return best;
}

/** Copy into a newly allocated array: what producing any new tensor of this size costs (first touch of fresh pages). */
export function measureFreshCopy(bytes: number, budget: number): number {
  const src = new Float32Array(bytes >> 2).fill(1);
  const iterations = Math.max(5, Math.min(20000, Math.floor(budget / bytes / 8)));
  let sink = 0;
  let best = Infinity;
  for (let trial = 0; trial < 3; trial++) {
    const t0 = performance.now();
    for (let i = 0; i < iterations; i++) {
      const dst = new Float32Array(bytes >> 2);
      dst.set(src);
      sink += dst[i % dst.length]!;
    }
    best = Math.min(best, ((performance.now() - t0) * 1000) / iterations);
  }
  return sink < 0 ? -1 : best;
}

const row = (
  environment: string,
  ranks: number,
  method: BenchRow['method'],
  bytes: number,
  iterations: number,
  us: number,
): BenchRow => {
  const algbw = bytes / (us * 1000);
  return {
    environment,
    ranks,
    method,
    bytes,
    iterations,
    us,
    algbw,
    busbw:
      method === 'memcpy' || method === 'fresh-copy' ? algbw : (algbw * 2 * (ranks - 1)) / ranks,
  };
};

async function startRanks(plan: BenchPlan, world: SharedWorld, withTensors: boolean) {
  const n = world.worldSize;
  const ports = Array.from({ length: n }, (_, r) => plan.spawn(r));
  const waiting = new Map<number, (m: { type: string; [k: string]: unknown }) => void>();
  // The baseline: every rank posts its buffer here; the main thread sums and posts a copy back to each.
  let inbox: Float32Array<ArrayBuffer>[] = [];
  ports.forEach((p, r) =>
    p.onMessage((m) => {
      if (m.type === 'pm-data') {
        inbox[m.rank as number] = new Float32Array(m.buffer as ArrayBuffer);
        if (Object.keys(inbox).length === n) {
          const sum = inbox[0]!;
          for (let q = 1; q < n; q++) {
            const x = inbox[q]!;
            for (let i = 0; i < sum.length; i++) sum[i]! += x[i]!;
          }
          for (let q = 1; q < n; q++) {
            const copy = sum.slice();
            ports[q]!.post({ type: 'pm-result', buffer: copy.buffer }, [copy.buffer]);
          }
          ports[0]!.post({ type: 'pm-result', buffer: sum.buffer }, [sum.buffer]);
          inbox = [];
        }
        return;
      }
      waiting.get(r)?.(m);
    }),
  );
  const ask = (r: number, m: BenchMessage) =>
    new Promise<{ type: string; [k: string]: unknown }>((resolve) => {
      waiting.set(r, resolve);
      ports[r]!.post(m);
    });
  await Promise.all(ports.map((_, r) => ask(r, { type: 'init', world, rank: r, withTensors })));
  return {
    async run(method: Method, bytes: number, iterations: number): Promise<number> {
      const replies = await Promise.all(
        ports.map((_, r) => ask(r, { type: 'run', method, bytes, iterations })),
      );
      const failed = replies.find((x) => x.type === 'error');
      if (failed)
        throw new Error(`${method} ${bytes} B on ${n} ranks: ${failed.message as string}`);
      // A loop ends when its slowest rank ends; of the trials, keep the fastest.
      const trials = replies[0]!.ms as number[];
      return Math.min(
        ...trials.map((_, t) => Math.max(...replies.map((x) => (x.ms as number[])[t]!))),
      );
    },
    stop() {
      for (const p of ports) p.terminate();
    },
  };
}

export async function runAllReduceBench(plan: BenchPlan): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  // Every size, and the memcpy baseline that does not fit the last-level cache.
  for (const bytes of [...new Set([...plan.sizes, DRAM_MEMCPY_BYTES])]) {
    const us = measureMemcpy(bytes, plan.budgetBytes);
    const r = row(plan.environment, 1, 'memcpy', bytes, 0, us);
    rows.push(r);
    const fresh = row(
      plan.environment,
      1,
      'fresh-copy',
      bytes,
      0,
      measureFreshCopy(bytes, plan.budgetBytes),
    );
    rows.push(fresh);
    plan.log(
      `${plan.environment} memcpy ${formatBytes(bytes).padStart(6)}  ${r.us.toFixed(1).padStart(9)} µs  ${r.algbw.toFixed(2).padStart(6)} GB/s; into a new array ${fresh.us.toFixed(1)} µs`,
    );
  }
  const maxBytes = Math.max(...plan.sizes);
  for (const n of plan.worlds) {
    const withTensors = plan.methods.some((m) => m.startsWith('tensor'));
    const world = createSharedWorld(n, { arenaBytes: n * maxBytes, watchdogMs: 60_000 });
    const ranks = await startRanks(plan, world, withTensors);
    try {
      // Warm the JIT on every path first: small-payload latency is otherwise the interpreter's.
      for (const method of plan.methods)
        await ranks.run(
          method,
          4096,
          method.startsWith('tensor') || method === 'postMessage' ? 300 : 3000,
        );
      for (const bytes of plan.sizes) {
        for (const method of plan.methods) {
          const iterations = iterationsFor(bytes, n, plan.budgetBytes);
          const ms = await ranks.run(method, bytes, iterations);
          const r = row(plan.environment, n, method, bytes, iterations, (ms * 1000) / iterations);
          rows.push(r);
          plan.log(
            `${plan.environment} n=${n} ${method.padEnd(11)} ${formatBytes(bytes).padStart(6)}  ${r.us.toFixed(1).padStart(9)} µs  algbw ${r.algbw.toFixed(2).padStart(6)} GB/s  busbw ${r.busbw.toFixed(2).padStart(6)} GB/s`,
          );
        }
      }
    } finally {
      ranks.stop();
    }
  }
  return rows;
}

export function formatBytes(b: number): string {
  return b >= 1 << 20 ? `${b / (1 << 20)}M` : `${b / 1024}K`;
}
