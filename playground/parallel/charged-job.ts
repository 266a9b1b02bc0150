/**
 * The charged job under a named model (`chargeAs: { model: 'llama-2-7b', … }`): the toy model does the
 * arithmetic with free kernels and free collectives, and this walks the charged model's layers in step with
 * the toy's pass, charging their compute and issuing the collectives PyTorch would issue for them: DDP's
 * buckets cut from the charged parameter list, or one FSDP unit per block plus the root.
 */
import * as tf from '@tensorflow/tfjs';
import type { Dist, ProcessGroupHandle } from '../collectives/dist-api.ts';
import { awaitLater, type RankContext } from '../collectives/rank-context.ts';
import type { ChargedCall, RankSimulation } from '../simulation/rank-simulation.ts';
import { layerGroups, type ChargedModel, type PendingEnd } from '../simulation/index.ts';
import type { GradientBucket } from './gradient-buckets.ts';

const MiB = 2 ** 20;

/** The compute side: charged layers walked in step with the toy's forward and backward. */
export class ChargedPass {
  readonly model: ChargedModel;
  readonly sim: RankSimulation;
  readonly tokensPerRank: number;
  readonly bytesPerElement: number;
  readonly #groups: number[][];

  constructor(
    sim: RankSimulation,
    model: ChargedModel,
    tokensPerRank: number,
    toyLayers: number,
    bytesPerElement: number,
  ) {
    this.sim = sim;
    this.model = model;
    this.tokensPerRank = tokensPerRank;
    this.bytesPerElement = bytesPerElement;
    this.#groups = layerGroups(model.layers.length, toyLayers);
  }

  /** The charged layers the toy's layer `toyLayer` stands for, in forward order. */
  group(toyLayer: number): readonly number[] {
    return this.#groups[toyLayer] ?? [];
  }

  /** Forward of charged layer `k`: 2 FLOPs per weight per token, the weights read once in bf16. */
  forward(k: number): void {
    const l = this.model.layers[k]!;
    this.sim.chargeWork(l.forwardFlopsPerToken * this.tokensPerRank, l.elements * 2, 'forward', {
      kind: 'forward',
    });
  }

  /** Backward of charged layer `k`: twice its forward (input and weight gradients), weights read and gradients written. */
  backward(k: number): void {
    const l = this.model.layers[k]!;
    this.sim.chargeWork(
      2 * l.forwardFlopsPerToken * this.tokensPerRank,
      l.elements * 4,
      `backward (layer ${k})`,
      { kind: 'backward', index: k },
    );
  }
}

/** What a rank's clock says now, or once the waits before this point resolve. */
function issueTime(sim: RankSimulation): number | Promise<number> {
  return sim.clock.mark();
}

/** Exact max over ranks of per-rank virtual times: float64 bits all-gathered as int32 pairs, off the clock. */
async function latestOverRanks(
  sim: RankSimulation,
  dist: Dist,
  times: readonly number[],
): Promise<number[]> {
  if (times.length === 0) return [];
  const bits = new Int32Array(new Float64Array(times).buffer);
  const mine = tf.tensor1d(bits, 'int32');
  const all = await sim.ghost(() => dist.allGather(mine));
  mine.dispose();
  const data = (await all.data()) as Int32Array;
  all.dispose();
  const values = new Float64Array(new Int32Array(data).buffer);
  return times.map((_, b) => {
    let latest = -Infinity;
    for (let r = 0; r < dist.worldSize; r++)
      latest = Math.max(latest, values[r * times.length + b]!);
    return latest;
  });
}

/** One DDP backward's charged buckets: launched in index order once their gradients exist, timed at the sync. */
export class ChargedBucketPass {
  readonly buckets: readonly GradientBucket[];
  readonly #pass: ChargedPass;
  readonly #ready: boolean[];
  readonly #issued: (number | Promise<number>)[] = [];
  readonly #overlap: boolean;

  constructor(pass: ChargedPass, buckets: readonly GradientBucket[], overlap: boolean) {
    this.#pass = pass;
    this.buckets = buckets;
    this.#overlap = overlap;
    this.#ready = pass.model.params.map(() => false);
  }

  /** Backward through the charged layers of toy layer `toyLayer`, launching buckets as they fill. */
  backward(toyLayer: number): void {
    const group = this.#pass.group(toyLayer);
    for (let i = group.length - 1; i >= 0; i--) {
      const k = group[i]!;
      this.#pass.backward(k);
      for (const p of this.#pass.model.layers[k]!.params) this.#ready[p] = true;
      if (this.#overlap) this.#launchReady();
    }
  }

  // Reducer::mark_bucket_ready: buckets are reduced in sequence, a ready bucket waits for earlier ones.
  #launchReady(): void {
    while (
      this.#issued.length < this.buckets.length &&
      this.buckets[this.#issued.length]!.params.every((p) => this.#ready[p])
    )
      this.#issued.push(issueTime(this.#pass.sim));
  }

  /** End of backward: the rest launch now; all are placed on the comm stream and the compute stream waits for them. */
  async sync(dist: Dist): Promise<void> {
    const sim = this.#pass.sim;
    while (this.#issued.length < this.buckets.length) this.#issued.push(issueTime(sim));
    const wait: PendingEnd = {};
    // The wait goes into the compute stream now, in program order; its end is known after the exchange.
    sim.waitFor(wait);
    const mine = await Promise.all(this.#issued);
    const latest = await latestOverRanks(sim, dist, mine);
    const members = Array.from({ length: dist.worldSize }, (_, r) => r);
    const calls = this.buckets.map((b, i) => ({
      call: {
        collective: 'all-reduce',
        bytes: b.bytes,
        name: `bucket ${i} all-reduce`,
        index: i,
      } satisfies ChargedCall,
      arrival: latest[i]!,
    }));
    wait.end = sim.scheduleAgreed(calls, members).end;
    sim.clock.advance();
  }
}

/**
 * FSDP2's units of the charged model: `fully_shard` on each block, then on the root, which takes the
 * embedding, final norm and output and stays unsharded from forward to backward. Unit k is block k; the
 * root is unit L. Collectives are real one-element calls timed as the unit's all-gather or reduce-scatter.
 */
export class ChargedUnits {
  readonly #pass: ChargedPass;
  readonly #context: RankContext;
  readonly #group: ProcessGroupHandle | undefined;
  readonly #forwardPrefetch: number;
  readonly #backwardPrefetch: number;
  readonly root: number;
  readonly unitElements: number[];
  #gathered = new Map<number, () => void>();
  #entered = new Set<number>();
  #reduceScatters: (() => void)[] = [];
  readonly #carrier: tf.Tensor;

  constructor(
    pass: ChargedPass,
    context: RankContext,
    group: ProcessGroupHandle | undefined,
    prefetch: { forward: number; backward: number },
  ) {
    this.#pass = pass;
    this.#context = context;
    this.#group = group;
    this.#forwardPrefetch = prefetch.forward;
    this.#backwardPrefetch = prefetch.backward;
    this.root = pass.model.shape.layers;
    this.unitElements = Array.from({ length: this.root + 1 }, () => 0);
    for (const l of pass.model.layers)
      this.unitElements[l.unit < 0 ? this.root : l.unit]! += l.elements;
    this.#carrier = tf.zeros([1]);
  }

  #unitOf(k: number): number {
    const u = this.#pass.model.layers[k]!.unit;
    return u < 0 ? this.root : u;
  }

  /** Units in the order a phase first uses them. */
  #order(phase: 'forward' | 'backward'): number[] {
    const blocks = Array.from({ length: this.root }, (_, b) => b);
    return phase === 'forward' ? [this.root, ...blocks] : [this.root, ...blocks.reverse()];
  }

  /** Issues unit `u`'s collective now; the returned function makes the compute stream wait for it (once). */
  #issue(u: number, collective: 'all-gather' | 'reduce-scatter'): () => void {
    const sim = this.#pass.sim;
    const call: ChargedCall = {
      collective,
      bytes: this.unitElements[u]! * this.#pass.bytesPerElement,
      name: `unit ${u} ${collective}`,
      index: u,
    };
    const work = sim.chargedCall(call, () =>
      this.#context.dist.allReduce(this.#carrier, { async: true, group: this.#group }),
    );
    const later = awaitLater(this.#context, work);
    if (later.raw) void later.raw.then((t) => t.dispose());
    let waited = false;
    return () => {
      // The first .then puts the wait into the compute stream at this point of the program.
      if (!waited) void later.then((t) => (later.raw ? undefined : t.dispose()));
      waited = true;
    };
  }

  /** Before charged layer `k` computes in `phase`: gather its unit (and prefetch) when first entered. */
  #enter(k: number, phase: 'forward' | 'backward'): (() => void) | null {
    const u = this.#unitOf(k);
    if (this.#entered.has(u)) return null;
    this.#entered.add(u);
    // The root stays unsharded from forward to backward (fully_shard's default for the root).
    const needs = (v: number) => phase === 'forward' || v !== this.root;
    if (needs(u) && !this.#gathered.has(u)) this.#gathered.set(u, this.#issue(u, 'all-gather'));
    const order = this.#order(phase);
    const at = order.indexOf(u);
    const ahead = phase === 'forward' ? this.#forwardPrefetch : this.#backwardPrefetch;
    for (const v of order.slice(at + 1, at + 1 + ahead))
      if (needs(v) && !this.#gathered.has(v)) this.#gathered.set(v, this.#issue(v, 'all-gather'));
    return needs(u) ? this.#gathered.get(u)! : null;
  }

  forward(toyLayer: number): void {
    for (const k of this.#pass.group(toyLayer)) {
      this.#enter(k, 'forward')?.();
      this.#pass.forward(k);
    }
  }

  /** Between forward and backward: blocks reshard after forward, the root does not. */
  startBackward(): void {
    this.#entered.clear();
    for (const u of [...this.#gathered.keys()]) if (u !== this.root) this.#gathered.delete(u);
  }

  backward(toyLayer: number, syncing: boolean): void {
    const group = this.#pass.group(toyLayer);
    for (let i = group.length - 1; i >= 0; i--) {
      const k = group[i]!;
      this.#enter(k, 'backward')?.();
      this.#pass.backward(k);
      const u = this.#unitOf(k);
      // A block's gradients are complete after its backward; the root's after the embedding's (layer 0).
      const done = u === this.root ? k === 0 : true;
      if (syncing && done) this.#reduceScatters.push(this.#issue(u, 'reduce-scatter'));
    }
  }

  /** End of backward: the compute stream waits for every reduce-scatter; the next pass starts afresh. */
  sync(): void {
    for (const wait of this.#reduceScatters) wait();
    this.#reduceScatters = [];
    this.#gathered.clear();
    this.#entered.clear();
  }

  describe(): string {
    const blocks = this.unitElements.slice(0, this.root);
    const b = this.#pass.bytesPerElement;
    return `${this.root + 1} FSDP units (fully_shard per block, then the root): all-gather and reduce-scatter ${((blocks[0]! * b) / MiB).toFixed(0)} MiB per block, ${((this.unitElements[this.root]! * b) / MiB).toFixed(0)} MiB for the root`;
  }

  dispose(): void {
    this.#carrier.dispose();
  }
}
