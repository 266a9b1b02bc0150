import * as tf from '@tensorflow/tfjs';
import type { ChargeAs, Dist, Work } from '../collectives/dist-api.ts';
import { awaitLater, rankContext, type RankContext } from '../collectives/rank-context.ts';
import { chargedModel } from '../simulation/index.ts';
import { ChargedPass } from './charged-job.ts';
import { forwardBackward, type LayerHooks, type TimelineSpan } from './layerwise-backward.ts';
import { mseLoss, type RowLoss } from './losses.ts';
import { MemoryLedger } from './memory-ledger.ts';
import type { ElementwiseOptimizer } from './optimizers.ts';
import { rankTracer, type RankTracer } from './rank-tracer.ts';
import type { Sequential } from './sequential.ts';

/** Options every data-parallel wrapper accepts. */
export interface DataParallelOptions {
  /** The optimizer the wrapper applies in `step()` (sharded under ZeRO). */
  optimizer: ElementwiseOptimizer;
  /** Defaults to the rank's own `dist`. */
  dist?: Dist;
  /**
   * 'rows' (default): the synchronized gradient is Σ over every rank's rows / total rows, exact for
   * unequal shards and accumulation. 'ranks': each rank's mean gradient, averaged over ranks (plain
   * `all_reduce(SUM) / world_size`), which is only right when shards are equal.
   */
  average?: 'rows' | 'ranks';
  /** Where held bytes are measured; a fresh ledger by default. */
  ledger?: MemoryLedger;
  /**
   * On a simulated cluster, charge every step as this model. A named architecture (`{ model:
   * 'llama-2-7b', tokensPerStep: 4_194_304 }`) is the job: DDP's buckets and FSDP's units are cut from
   * its parameter list as PyTorch would and its layers' compute is charged, while the toy model does the
   * arithmetic for free. `{ params: 7e9, tokensPerStep }` only scales the toy's kernels and collectives.
   * Ignored in a real-time run.
   */
  chargeAs?: ChargeAs;
}

/** The training surface shared by DDP, ZeRO-1/2/3 and FSDP. */
export interface DataParallelTrainer {
  readonly model: Sequential;
  readonly dist: Dist;
  readonly ledger: MemoryLedger;
  /** Spans of forward, backward, optimizer and collective work since the last `clearTimeline()`. */
  readonly timeline: TimelineSpan[];
  /** Forward + backward on this rank's batch, synchronizing gradients unless inside `noSync`. Returns the local mean loss. */
  backward(x: tf.Tensor, target: tf.Tensor, loss?: RowLoss): Promise<number>;
  /** Apply the optimizer to the synchronized gradients, then drop them. */
  step(): Promise<void>;
  /** `backward` then `step`. */
  trainStep(x: tf.Tensor, target: tf.Tensor, loss?: RowLoss): Promise<number>;
  /** Run `fn` with gradient synchronization off: backward passes only accumulate locally, like `ddp.no_sync()`. */
  noSync<T>(fn: () => Promise<T>): Promise<T>;
  /** Full parameters by PyTorch-style name (a collective under ZeRO-3: every rank must call it). */
  snapshot(): Promise<Record<string, Float32Array>>;
  clearTimeline(): void;
}

/**
 * A collective in flight with its timeline span. In a simulated run the compute clock waits for it
 * where `done` is first awaited, not where it was launched (so launching early overlaps).
 */
export interface PendingCollective {
  done: PromiseLike<tf.Tensor>;
}

/** `pending` with `fn` applied to its result when it arrives; the clock still waits only where it is awaited. */
export function afterPending(
  pending: PendingCollective,
  fn: (t: tf.Tensor) => tf.Tensor,
): PendingCollective {
  const source = pending.done as PromiseLike<tf.Tensor> & { raw?: Promise<tf.Tensor> };
  if (!source.raw) return { done: Promise.resolve(pending.done).then(fn) };
  const raw = source.raw.then(fn);
  return { done: lazyResult(raw, () => void source.then(() => {})) };
}

/** A thenable over `raw` that calls `onFirstUse` (the clock's wait) the first time it is awaited. */
function lazyResult<T>(
  raw: Promise<T>,
  onFirstUse: () => void,
): PromiseLike<T> & { raw: Promise<T> } {
  let used = false;
  return {
    raw,
    then(onFulfilled, onRejected) {
      if (!used) onFirstUse();
      used = true;
      return raw.then(onFulfilled, onRejected);
    },
  };
}

/** Gradient accumulation, no-sync bookkeeping and the row count shared by every wrapper. */
export abstract class DataParallelBase implements DataParallelTrainer {
  readonly model: Sequential;
  readonly dist: Dist;
  readonly ledger: MemoryLedger;
  readonly optimizer: ElementwiseOptimizer;
  readonly average: 'rows' | 'ranks';
  readonly timeline: TimelineSpan[] = [];
  protected readonly tracer: RankTracer;
  /** This rank's runtime context: its virtual time (`context.sim`) in a simulated run. */
  protected readonly context: RankContext;
  readonly chargeAs: ChargeAs | undefined;
  /** Locally accumulated full gradients (null once handed to a collective). */
  protected localGrads: (tf.Tensor | null)[];
  protected syncing = true;
  /** Rows across every rank in the batch being synchronized (or the world size under 'ranks'), known early in the pass. */
  protected divisor: PromiseLike<number> | null = null;
  protected pendingRows = 0;
  protected steps = 0;
  /** The charged model's compute, walked with the toy's layers, when charged as a named model. */
  protected chargedPass: ChargedPass | null = null;

  constructor(model: Sequential, dist: Dist, opts: DataParallelOptions) {
    this.model = model;
    this.dist = dist;
    this.optimizer = opts.optimizer;
    this.average = opts.average ?? 'rows';
    this.ledger = opts.ledger ?? new MemoryLedger();
    this.localGrads = model.params.map(() => null);
    this.tracer = rankTracer(dist);
    this.context = rankContext(dist);
    this.chargeAs = opts.chargeAs;
  }

  /** Ends a step in virtual time (a no-op in a real-time run): every concrete step() calls it last. */
  protected async endVirtualStep(): Promise<void> {
    await this.context.sim?.endStep();
  }

  /** Adds a span to the timeline; compute spans also go to the page's trace, next to the runtime's collectives. */
  protected record(span: TimelineSpan): void {
    this.timeline.push(span);
    if (this.chargedPass && span.layer !== undefined && span.kind !== 'optimizer')
      this.chargedLayer(span.kind as 'forward' | 'backward', span.layer);
    if (span.kind === 'forward' || span.kind === 'backward' || span.kind === 'optimizer')
      this.tracer.compute(`${span.kind} ${span.label}`, span.start, span.end);
  }

  /** Runs `fn` and records it as one span of `kind`. */
  protected timed<T>(kind: TimelineSpan['kind'], label: string, fn: () => T): T {
    const start = this.tracer.now();
    const before = this.context.sim?.setLabel(kind);
    let out: T;
    try {
      out = fn();
    } finally {
      if (before !== undefined) this.context.sim?.setLabel(before);
    }
    this.record({ kind, label, start, end: this.tracer.now() });
    return out;
  }

  /** One optimizer update; in a simulated run charged as one fused kernel (RankSimulation.optimizerStep). */
  protected optimizerUpdate(
    param: tf.Tensor,
    grad: tf.Tensor,
    state: readonly tf.Tensor[],
  ): { param: tf.Tensor; state: tf.Tensor[] } {
    const run = () => this.optimizer.update(param, grad, state, this.steps);
    const sim = this.context.sim;
    return sim ? sim.optimizerStep(param.size, this.optimizer.stateSlots, run) : run();
  }

  /** Launch-side bookkeeping of an async collective: a timeline span from the call until its result arrives. */
  protected track(
    kind: TimelineSpan['kind'],
    label: string,
    bytes: number,
    work: Work<tf.Tensor>,
  ): PendingCollective {
    const span: TimelineSpan = { kind, label, start: this.tracer.now(), end: Number.NaN, bytes };
    this.timeline.push(span);
    const stamp = (t: tf.Tensor) => {
      span.end = this.tracer.now();
      return t;
    };
    const later = awaitLater(this.context, work);
    if (!later.raw) return { done: Promise.resolve(later).then(stamp) };
    // Simulated: the clock waits where the result is first awaited, not here.
    return { done: lazyResult(later.raw.then(stamp), () => void later.then(() => {})) };
  }

  async noSync<T>(fn: () => Promise<T>): Promise<T> {
    const before = this.syncing;
    this.syncing = false;
    try {
      return await fn();
    } finally {
      this.syncing = before;
    }
  }

  async trainStep(x: tf.Tensor, target: tf.Tensor, loss: RowLoss = mseLoss): Promise<number> {
    const value = await this.backward(x, target, loss);
    await this.step();
    return value;
  }

  clearTimeline(): void {
    this.timeline.length = 0;
  }

  abstract backward(x: tf.Tensor, target: tf.Tensor, loss?: RowLoss): Promise<number>;
  abstract step(): Promise<void>;
  abstract snapshot(): Promise<Record<string, Float32Array>>;

  /** Adds fresh gradients into the local accumulators; returns the parameter indices now complete. */
  protected accumulate(layer: number, grads: tf.Tensor[]): number[] {
    const indices = this.model.layerParams[layer]!;
    indices.forEach((k, j) => {
      const g = grads[j]!;
      const prev = this.localGrads[k];
      if (prev) {
        const sum = tf.add(prev, g);
        this.ledger.free(prev, g);
        this.ledger.hold('grads', sum);
        this.localGrads[k] = sum;
      } else {
        this.ledger.hold('grads', g);
        this.localGrads[k] = g;
      }
    });
    return indices;
  }

  /** Whether this wrapper issues the charged job's own collectives under a named model (else the model only scales). */
  protected supportsChargedJob(): boolean {
    return false;
  }

  /** A charged pass begins (named model): wrappers set up their charged collectives for it. */
  protected startChargedPass(_pass: ChargedPass): void {}

  /** The toy's layer `layer` finished its `kind` pass: charge the charged layers it stands for. */
  protected chargedLayer(kind: 'forward' | 'backward', layer: number): void {
    const pass = this.chargedPass!;
    const group = pass.group(layer);
    if (kind === 'forward') for (const k of group) pass.forward(k);
    else for (let i = group.length - 1; i >= 0; i--) pass.backward(group[i]!);
  }

  /** Tells the simulation what this step is charged as, before the pass. */
  #charge(rows: number): void {
    const sim = this.context.sim;
    const as = this.chargeAs;
    if (!sim || !as) return;
    const actual = {
      params: this.model.params.reduce((a, p) => a + p.size, 0),
      tokensPerStep: rows * this.dist.worldSize,
    };
    if (as.model !== undefined && !this.supportsChargedJob()) {
      // This wrapper cannot issue the charged model's collectives: scale by its parameter count instead.
      const { model: _named, ...rest } = as;
      sim.chargeAs({ ...rest, params: chargedModel(as.model).totalParams }, actual);
      return;
    }
    sim.chargeAs(as, actual);
    const named = sim.chargedModel;
    if (!named) return;
    this.chargedPass ??= new ChargedPass(
      sim,
      named,
      as.tokensPerStep / this.dist.worldSize,
      this.model.layers.length,
      as.bytesPerElement ?? 2,
    );
    this.startChargedPass(this.chargedPass);
  }

  /** Runs the layer-wise pass; when syncing under 'rows', also starts the all-reduce of the row count. */
  protected async runPass(
    x: tf.Tensor,
    target: tf.Tensor,
    loss: RowLoss,
    hooks: LayerHooks,
  ): Promise<{ meanLoss: number; divisor: PromiseLike<number> | null }> {
    const rows = x.shape[0]!;
    this.pendingRows += rows;
    const sim = this.context.sim;
    this.#charge(rows);
    let divisor: PromiseLike<number> | null = null;
    if (this.syncing) {
      if (this.average === 'rows') {
        const count = tf.tensor1d([this.pendingRows]);
        const issue = () => this.dist.allReduce(count, { op: 'sum', async: true });
        // The row count is the book's exactness device, not model data: charged at its real 4 bytes.
        const work = !sim ? issue() : this.chargedPass ? sim.ghost(issue) : sim.bookkeeping(issue);
        const later = awaitLater(this.context, work);
        const total = Promise.resolve(later.raw ?? later).then(async (t) => {
          count.dispose();
          const n = (await t.data())[0]!;
          t.dispose();
          return n;
        });
        // Simulated: the rank waits for the count where it first needs it (in the backward), as for a bucket.
        divisor = later.raw ? lazyResult(total, () => void later.then(() => {})) : total;
      } else {
        divisor = Promise.resolve(this.dist.worldSize);
      }
      this.pendingRows = 0;
    }
    this.divisor = divisor;
    const { lossSum } = await forwardBackward(this.model, x, target, loss, {
      reduction: this.average === 'rows' ? 'sum' : 'mean',
      hooks,
      dist: this.dist,
      ledger: this.ledger,
      record: (span) => this.record(span),
      now: this.tracer.now,
    });
    return { meanLoss: lossSum / rows, divisor };
  }
}
