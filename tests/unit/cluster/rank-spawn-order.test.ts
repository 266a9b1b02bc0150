// Issue 20: how warm (and cold) ranks start. Fake workers, no threads: ≈ 50 ms.
import { describe, expect, it } from 'vitest';
import {
  prepareRanksOn,
  type RankWorker,
  type WorkerPlatform,
} from '../../../playground/cluster/cluster-core.ts';

/** A promise with its resolve function, to settle a fake worker's steps by hand. */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/** Fake workers that record when they are spawned and prepared, and load and prepare only when told to. */
function fakePlatform(withLoaded: boolean) {
  const spawned: number[] = [];
  const terminated: number[] = [];
  const loaded = new Map<number, ReturnType<typeof deferred>>();
  const prepared = new Map<number, ReturnType<typeof deferred>>();
  const platform: WorkerPlatform = {
    spawn(rank) {
      spawned.push(rank);
      loaded.set(rank, deferred());
      prepared.set(rank, deferred());
      const worker = {
        api: { prepare: () => prepared.get(rank)!.promise },
        terminate: () => terminated.push(rank),
        ...(withLoaded ? { loaded: loaded.get(rank)!.promise } : {}),
      };
      return worker as unknown as RankWorker;
    },
  };
  return { platform, spawned, terminated, loaded, prepared };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('prepareRanksOn: spawn order', () => {
  it('starts rank 0 alone, and ranks 1–3 once its scripts have loaded, before it is prepared', async () => {
    const f = fakePlatform(true);
    const set = prepareRanksOn(f.platform, 4, 'cpu');
    await tick();
    expect(f.spawned).toEqual([0]);
    f.loaded.get(0)!.resolve();
    await tick();
    expect(f.spawned).toEqual([0, 1, 2, 3]); // rank 0 is still preparing (tfjs, its backend)
    let ready = false;
    void set.ready.then(() => (ready = true));
    for (const r of [0, 1, 2, 3]) f.prepared.get(r)!.resolve();
    await tick();
    expect(ready).toBe(true);
    set.dispose();
    expect(f.terminated.sort()).toEqual([0, 1, 2, 3]);
  });

  it('starts every rank at once on a platform that gives no load signal (Node worker threads)', async () => {
    const f = fakePlatform(false);
    const set = prepareRanksOn(f.platform, 4, 'cpu');
    await tick();
    expect(f.spawned).toEqual([0, 1, 2, 3]);
    set.dispose();
  });

  it('a set ended before rank 0 loaded never starts the others, and its ready still settles', async () => {
    const f = fakePlatform(true);
    const set = prepareRanksOn(f.platform, 4, 'cpu');
    const claim = set.claim(() => {});
    claim.terminate();
    const outcomes = await Promise.allSettled(claim.spawned.slice(1));
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(f.spawned).toEqual([0]);
    expect(f.terminated).toEqual([0]);
    f.prepared.get(0)!.resolve(); // a terminated worker's reply, if any, changes nothing
    await expect(set.ready).resolves.toBeUndefined();
  });
});
