// Issue 20: how warm (and cold) ranks start; issue 30: what each rank worker is handed. Fake workers, no threads: ≈ 50 ms.
import { describe, expect, it } from 'vitest';
import {
  prepareRanksOn,
  startClusterOn,
  type RankWorker,
  type WorkerPlatform,
} from '../../../playground/cluster/cluster-core.ts';

/** Fake workers that record when they are spawned and terminated, and are prepared only when told to. */
function fakePlatform() {
  const spawned: number[] = [];
  const terminated: number[] = [];
  const prepare = new Map<number, () => void>();
  const crash = new Map<number, (message: string) => void>();
  const platform: WorkerPlatform = {
    spawn(rank, onCrash) {
      spawned.push(rank);
      crash.set(rank, onCrash);
      const prepared = new Promise<void>((resolve) => prepare.set(rank, resolve));
      const worker = { api: { prepare: () => prepared }, terminate: () => terminated.push(rank) };
      return worker as unknown as RankWorker;
    },
  };
  return { platform, spawned, terminated, prepare, crash };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('prepareRanksOn: starting a world of ranks', () => {
  it('starts every rank at once, before any is prepared, and is ready when all are', async () => {
    const f = fakePlatform();
    const set = prepareRanksOn(f.platform, 4, 'cpu', 4);
    expect(f.spawned).toEqual([0, 1, 2, 3]);
    let ready = false;
    void set.ready.then(() => (ready = true));
    for (const r of [0, 1, 2]) f.prepare.get(r)!();
    await tick();
    expect(ready).toBe(false);
    f.prepare.get(3)!();
    await tick();
    expect(ready).toBe(true);
    set.dispose();
    expect(f.terminated).toEqual([0, 1, 2, 3]);
  });

  it('a set terminated before its ranks were prepared settles every rank and its ready', async () => {
    const f = fakePlatform();
    const set = prepareRanksOn(f.platform, 4, 'cpu', 4);
    f.prepare.get(1)!();
    await tick();
    const claim = set.claim(() => {});
    claim.terminate();
    const outcomes = await Promise.allSettled(claim.spawned);
    expect(outcomes.map((o) => o.status)).toEqual([
      'rejected',
      'fulfilled',
      'rejected',
      'rejected',
    ]);
    await expect(set.ready).resolves.toBeUndefined();
    expect(f.terminated).toEqual([0, 1, 2, 3]);
  });

  it('a disposed set (the page chose another world) frees its workers and still settles', async () => {
    const f = fakePlatform();
    const set = prepareRanksOn(f.platform, 2, 'cpu', 2);
    set.dispose();
    expect(f.terminated).toEqual([0, 1]);
    await expect(set.ready).resolves.toBeUndefined();
    expect(() => set.claim(() => {})).toThrow('warm ranks serve one run');
  });

  it('a rank that fails to load while warm ends the set: ready settles, and no run may take it', async () => {
    const f = fakePlatform();
    const set = prepareRanksOn(f.platform, 4, 'cpu', 4);
    f.prepare.get(0)!();
    f.crash.get(2)!('the worker failed to load'); // a network blip in the background; its prepare never answers
    await expect(set.ready).resolves.toBeUndefined();
    expect(set.broken).toBe(true);
    expect(f.terminated).toEqual([0, 1, 2, 3]);
    expect(() => set.claim(() => {})).toThrow('warm ranks serve one run');
  });

  it('a crash after a run claimed the set goes to that run, and the set is not called broken', async () => {
    const f = fakePlatform();
    const set = prepareRanksOn(f.platform, 2, 'cpu', 2);
    const crashes: string[] = [];
    set.claim((rank, message) => crashes.push(`${rank}: ${message}`));
    f.crash.get(1)!('out of memory');
    expect(crashes).toEqual(['1: out of memory']);
    expect(set.broken).toBe(false);
    expect(f.terminated).toEqual([]);
  });
});

describe('prepareRanksOn: a worker that cannot be created', () => {
  it('ends the ranks already spawned and throws the reason', () => {
    const f = fakePlatform();
    const spawn = f.platform.spawn;
    f.platform.spawn = (rank, onCrash) => {
      if (rank === 2) throw new Error('Worker could not be created');
      return spawn(rank, onCrash);
    };
    expect(() => prepareRanksOn(f.platform, 4, 'cpu', 4)).toThrow('Worker could not be created');
    expect(f.spawned).toEqual([0, 1]);
    expect(f.terminated).toEqual([0, 1]);
  });
});

describe('startClusterOn: the shared memory reaches each worker once', () => {
  it('in its prepare, not in every hosted rank’s start (a posted copy of the memory is a new object each time)', async () => {
    const prepared: unknown[] = [];
    const starts: Record<string, unknown>[] = [];
    const platform: WorkerPlatform = {
      spawn() {
        const api = {
          prepare: (_backend: string, world: unknown) => (prepared.push(world), Promise.resolve()),
          run: (start: Record<string, unknown>) => (starts.push(start), new Promise(() => {})),
        };
        return { api, terminate() {} } as unknown as RankWorker;
      },
    };
    const run = startClusterOn(platform, { code: 'export {}', worldSize: 8, workers: 2 }, () => {});
    for (let i = 0; i < 20 && starts.length < 8; i++) await tick();
    run.stop();
    expect(prepared).toHaveLength(2);
    expect(prepared[0]).toBe(prepared[1]);
    expect((prepared[0] as { memory: unknown }).memory).toBeInstanceOf(WebAssembly.Memory);
    expect(starts).toHaveLength(8);
    for (const start of starts) expect(start).not.toHaveProperty('world');
    expect(starts.map((s) => s.hosted)).toEqual([4, 4, 4, 4, 4, 4, 4, 4]);
  });
});
