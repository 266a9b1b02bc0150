// The rank side of the all-reduce benchmark, shared by the Node worker_threads and the browser Web Workers.
import { RankCollectives } from '../../playground/collectives/rank-collectives.ts';
import { joinWorld } from '../../playground/collectives/create-dist.ts';
import type { Dist } from '../../playground/collectives/dist-api.ts';
import type { SharedWorld } from '../../playground/collectives/shared-world.ts';

export interface RankPort {
  post(message: unknown, transfer?: Transferable[]): void;
  onMessage(handler: (message: BenchMessage) => void): void;
}

export type Method =
  | 'ring'
  | 'two-shot'
  | 'auto'
  | 'auto-async'
  | 'postMessage'
  | 'tensor-auto'
  | 'tensor-ring'
  | 'tensor-fresh'
  | 'copy-in'
  | 'copy-in-out';

/** Timed loops per measurement: more for small payloads, whose loops are short and easily hit by other processes. */
export const trialsFor = (bytes: number) => (bytes <= 65536 ? 7 : 3);

export type BenchMessage =
  | { type: 'init'; world: SharedWorld; rank: number; withTensors: boolean }
  | { type: 'run'; method: Method; bytes: number; iterations: number }
  | { type: 'pm-result'; buffer: ArrayBuffer }
  | { type: 'stop' };

/** Wires one rank: answers 'init' with 'ready' and each 'run' with {type:'timing', ms} for the timed loop. */
export function serveBenchRank(port: RankPort): void {
  let raw: RankCollectives | null = null;
  let dist: Dist | null = null;
  let tf: typeof import('@tensorflow/tfjs') | null = null;
  let rank = 0;
  let pmResolve: ((b: ArrayBuffer) => void) | null = null;
  let queue: Promise<void> = Promise.resolve();

  const postMessageAllReduce = (
    data: Float32Array<ArrayBuffer>,
  ): Promise<Float32Array<ArrayBuffer>> =>
    new Promise((resolve) => {
      pmResolve = (b) => resolve(new Float32Array(b));
      port.post({ type: 'pm-data', rank, buffer: data.buffer }, [data.buffer]);
    });

  async function run(method: Method, bytes: number, iterations: number): Promise<number[]> {
    const c = raw!;
    const len = bytes >> 2;
    let once: () => Promise<unknown>;
    if (method === 'postMessage') {
      let data = new Float32Array(len).fill(rank);
      once = async () => {
        data = await postMessageAllReduce(data);
      };
    } else if (method === 'tensor-auto' || method === 'tensor-ring') {
      const t = tf!.fill([len], rank + 1);
      const algorithm = method === 'tensor-ring' ? 'ring' : 'auto';
      once = async () => {
        (await dist!.allReduce(t, { algorithm })).dispose();
      };
    } else if (method === 'tensor-fresh') {
      // dist.allReduce as it was before the result pool: read, all-reduce into a new array, wrap it.
      const t = tf!.fill([len], rank + 1);
      once = async () => {
        const out = await c.allReduce(
          { dtype: 'float32', length: len, data: t.data() as Promise<Float32Array> },
          { algorithm: 'auto' },
        );
        tf!.tensor(out, [len], 'float32').dispose();
      };
    } else if (method === 'copy-in' || method === 'copy-in-out') {
      // Floors for any path from a tensor in private memory: its data copied into shared memory, the raw
      // all-reduce, and (copy-in-out) the result copied out to private memory; no tensor made or read.
      const data = new Float32Array(len).fill(rank + 1);
      const out = new Float32Array(method === 'copy-in-out' ? len : 0);
      const region = new Float32Array(c.engine.bytes.buffer, c.engine.regionOffset(rank), len);
      once = async () => {
        region.set(data);
        await c.allReduceInRegion(len, 'float32', { algorithm: 'auto' });
        if (out.length) out.set(region);
      };
    } else {
      new Float32Array(c.engine.bytes.buffer, c.engine.regionOffset(rank), len).fill(rank + 1);
      // auto-async: the waits yield to the event loop (Atomics.waitAsync), as overlapped DDP buckets do.
      const opts =
        method === 'auto-async'
          ? { algorithm: 'auto' as const, async: true }
          : { algorithm: method };
      once = () => c.allReduceInRegion(len, 'float32', opts);
    }
    // Warm up the JIT and the caches as much as the timed loop will.
    for (let i = 0; i < Math.min(iterations, 50); i++) await once();
    // Several timed loops, each between barriers: the driver keeps the best, the machine is shared.
    const trials: number[] = [];
    for (let trial = 0; trial < trialsFor(bytes); trial++) {
      await c.barrier();
      const t0 = performance.now();
      for (let i = 0; i < iterations; i++) await once();
      trials.push(performance.now() - t0);
    }
    await c.barrier();
    return trials;
  }

  port.onMessage((m) => {
    if (m.type === 'pm-result') {
      pmResolve?.(m.buffer);
      return;
    }
    queue = queue.then(async () => {
      if (m.type === 'init') {
        rank = m.rank;
        if (m.withTensors) {
          tf = await import('@tensorflow/tfjs');
          await tf.setBackend('cpu');
          const joined = await joinWorld(m.world, m.rank, { tf, backend: 'cpu' });
          dist = joined.dist;
          raw = joined.comm;
        } else {
          raw = new RankCollectives(m.world, m.rank, { now: () => performance.now() });
        }
        port.post({ type: 'ready' });
      } else if (m.type === 'run') {
        try {
          port.post({ type: 'timing', ms: await run(m.method, m.bytes, m.iterations) });
        } catch (err) {
          port.post({ type: 'error', message: (err as Error).message });
        }
      }
    });
  });
}
