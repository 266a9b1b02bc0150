import { Worker } from 'node:worker_threads';
import {
  createSharedWorld,
  type SharedWorldOptions,
} from '../../../../playground/collectives/shared-world.ts';
import type { SimulatedClusterOptions } from '../../../../playground/contract/protocol.ts';
import type { scenarios } from './scenarios.ts';

export type RankOutcome<T = unknown> = { ok: true; value: T } | { ok: false; error: string };

/** N real worker_threads sharing one world; every scenario runs on all ranks at once. */
export interface TestWorld {
  worldSize: number;
  run<T = unknown>(
    scenario: keyof typeof scenarios,
    args?: unknown | ((rank: number) => unknown),
  ): Promise<RankOutcome<T>[]>;
  /** Like run, but throws if any rank failed; returns each rank's value. */
  values<T = unknown>(
    scenario: keyof typeof scenarios,
    args?: unknown | ((rank: number) => unknown),
  ): Promise<T[]>;
  close(): Promise<void>;
}

export async function startWorld(
  worldSize: number,
  options: SharedWorldOptions & {
    withTensors?: boolean;
    backend?: 'cpu' | 'wasm';
    /** Ranks in virtual time on this simulated cluster (implies withTensors). */
    simulation?: SimulatedClusterOptions;
  } = {},
): Promise<TestWorld> {
  const world = createSharedWorld(worldSize, options);
  const url = new URL('./rank-thread.ts', import.meta.url);
  const workers = Array.from(
    { length: worldSize },
    (_, rank) =>
      new Worker(url, {
        workerData: {
          world,
          rank,
          withTensors: !!options.withTensors || !!options.simulation,
          backend: options.backend ?? 'cpu',
          simulation: options.simulation,
        },
      }),
  );
  await Promise.all(
    workers.map(
      (w) =>
        new Promise<void>((resolve, reject) => {
          w.once('error', reject);
          w.on('message', (m) => {
            if (m?.ready) resolve();
          });
        }),
    ),
  );
  let nextId = 0;
  const run = <T>(scenario: keyof typeof scenarios, args?: unknown): Promise<RankOutcome<T>[]> => {
    const id = ++nextId;
    return Promise.all(
      workers.map(
        (w, rank) =>
          new Promise<RankOutcome<T>>((resolve, reject) => {
            const onMessage = (m: { id?: number } & RankOutcome<T>) => {
              if (m.id !== id) return;
              w.off('message', onMessage);
              w.off('error', reject);
              resolve(m.ok ? { ok: true, value: m.value } : { ok: false, error: m.error });
            };
            w.on('message', onMessage);
            w.once('error', reject);
            w.postMessage({
              id,
              scenario,
              args: typeof args === 'function' ? (args as (r: number) => unknown)(rank) : args,
            });
          }),
      ),
    );
  };
  return {
    worldSize,
    run,
    async values<T>(scenario: keyof typeof scenarios, args?: unknown) {
      const out = await run<T>(scenario, args);
      const failed = out.map((o, r) => (o.ok ? null : `rank ${r}: ${o.error}`)).filter(Boolean);
      if (failed.length) throw new Error(failed.join('\n'));
      return out.map((o) => (o as { value: T }).value);
    },
    async close() {
      await Promise.all(workers.map((w) => w.terminate()));
    },
  };
}
