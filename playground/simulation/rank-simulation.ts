/**
 * One rank's virtual time in a simulated run: its compute stream (a ProgramClock in program order),
 * its communication stream, the charge-as scaling and its step reports. The process group reaches it only
 * through the clock interface (rank-clock.ts); members exchange only arrival times (through the shared
 * memory their collective already uses), so every member computes the same end (simulated-call.ts).
 */
import type {
  SimulatedClusterOptions,
  VirtualStepRank,
  VirtualTraceEvent,
} from '../contract/protocol.ts';
import { chargedModel, type ChargedModel } from './charged-model.ts';
import { worldSize, type ClusterShape } from './cluster-shape.ts';
import type { ResolvedCluster } from './cluster-options.ts';
import { predictSendRecv, type Collective, type CollectivePrediction } from './collective-model.ts';
import { groupCollectivePrediction } from './group-collective.ts';
import { ProgramClock, type PendingEnd, type SpanMeta } from './program-clock.ts';
import { UNTIMED_CALL, type CallClock, type CollectiveCost, type RankClock } from './rank-clock.ts';
import { fusedOptimizerCost, peakFlops, rooflineSeconds } from './roofline.ts';
import type { ActualSize, ChargeAs, Simulation } from './simulation-api.ts';
import { SimulatedCall } from './simulated-call.ts';
import { tfjsKernelCost, type KernelCall } from './tfjs-kernel-cost.ts';

const TRACE_BATCH = 256;

/** A label's kind and layer: 'backward (layer 3)' is kind 'backward', index 3. */
function labelMeta(label: string): SpanMeta {
  const layer = /\(layer (\d+)\)$/.exec(label);
  return { kind: computeKind(label), ...(layer ? { index: Number(layer[1]) } : {}) };
}

/** The span kind a compute label names ('forward', 'backward (layer 3)', 'optimizer', else 'compute'). */
function computeKind(label: string): SpanMeta['kind'] {
  for (const k of ['forward', 'backward', 'optimizer'] as const) if (label.startsWith(k)) return k;
  return 'compute';
}

export interface SimulationSinks {
  trace(events: VirtualTraceEvent[]): void;
  step(report: VirtualStepRank): void;
  notice(text: string): void;
}

/** What a collective or point-to-point call needs to be timed, captured when the program issued it. */
export interface IssuedCall {
  ready: number | Promise<number>;
  work: PendingEnd;
  /** The charge-as factor on its bytes when it was issued (1 for bookkeeping calls). */
  byteScale: number;
  /** Timed as this collective of the charged model instead of the call's own bytes. */
  charged?: ChargedCall;
}

/** A collective of the charged job: what it is, its bytes (nccl-tests' size) and its timeline label. */
export interface ChargedCall {
  collective: Collective;
  bytes: number;
  /** e.g. 'bucket 3 all-reduce', 'unit 4 all-gather'. */
  name: string;
  index?: number;
}

/** The longest explicit compute a call may charge: 1e12 s (about 31,700 years); a longer one is a mistake. */
export const MAX_COMPUTE_SECONDS = 1e12;
/** The largest job chargeAs accepts: 1e15 parameters, 1e12 tokens a step (GPT-3 is 1.75e11 and 3.2e6). */
export const MAX_CHARGED_PARAMS = 1e15;
export const MAX_CHARGED_TOKENS = 1e12;

/** The simulated clock behind the process group's one clock interface (rank-clock.ts). */
export class RankSimulation implements RankClock {
  readonly virtual = true;
  readonly rank: number;
  readonly shape: ClusterShape;
  readonly options: Readonly<SimulatedClusterOptions>;
  readonly clock: ProgramClock;
  readonly timeoutSeconds: number;
  readonly #sinks: SimulationSinks;
  readonly #efficiency: number;
  #commFree = 0;
  readonly #p2pFree = new Map<string, number>();
  #step = 0;
  #stepStart = 0;
  #stepCompute = 0;
  #stepComm = 0;
  #stepExposed = 0;
  #stepPeerWait = 0;
  /** When this rank's collectives ran ([start, end], duration only), for splitting waits into exposed communication and waiting for peers. */
  #busy: [number, number][] = [];
  #kernelModelFlops = 0;
  #scale = { flops: 1, params: 1, bytes: 1 };
  #chargedAs: { params: number; tokensPerStep: number; model?: string } | null = null;
  #saidNoModelCompute = false;
  /** The named architecture the run is charged as: its own compute replaces the toy's kernels. */
  #named: ChargedModel | null = null;
  #chargedSizes: string | undefined;
  #configuration: string | undefined;
  #ghost = 0;
  #pendingCharge: ChargedCall | null = null;
  #label = 'compute';
  #bookkeeping = false;
  #uncharged = 0;
  #lastStep: VirtualStepRank | null = null;
  readonly #trace: VirtualTraceEvent[] = [];
  /** Set by the runtime: marks this rank dead in shared memory and parks it. */
  onDeath: (step: number) => Promise<never> = () => new Promise<never>(() => {});

  /** `cluster` was resolved once at run start (cluster/cluster-core.ts); a rank never resolves it again. */
  constructor(rank: number, cluster: ResolvedCluster, sinks: SimulationSinks) {
    const options = cluster.options;
    this.shape = cluster.shape;
    const world = cluster.world;
    if (!(rank >= 0 && rank < world))
      throw new RangeError(`rank ${rank} is outside the simulated world of ${world}`);
    this.rank = rank;
    this.options = options;
    this.#sinks = sinks;
    this.#efficiency = cluster.efficiency;
    this.timeoutSeconds = cluster.timeoutSeconds;
    const jitter = options.jitter;
    this.clock = new ProgramClock(
      rank,
      {
        slowdown: options.slowdown?.[rank],
        jitter: jitter && (!jitter.ranks || jitter.ranks.includes(rank)) ? jitter : undefined,
      },
      (s) =>
        this.#push({
          rank,
          lane: 'compute',
          name: s.label,
          start: s.start,
          end: s.end,
          step: this.#step,
          kind: s.kind ?? computeKind(s.label),
          ...(s.index === undefined ? {} : { index: s.index }),
          ...(this.#configuration === undefined ? {} : { configuration: this.#configuration }),
        }),
      (from, to) => this.#commBusy(from, to),
    );
  }

  /** Seconds of [from, to] during which this rank's communication ran; forgets what ended before `from`. */
  #commBusy(from: number, to: number): number {
    this.#busy = this.#busy.filter(([, end]) => end > from);
    let busy = 0;
    for (const [start, end] of this.#busy)
      busy += Math.max(0, Math.min(end, to) - Math.max(start, from));
    return busy;
  }

  get step(): number {
    return this.#step;
  }

  /** True when this rank is planned to die at the start of its current step. */
  get diesNow(): boolean {
    const d = this.options.deadRank;
    return !!d && d.rank === this.rank && this.#step >= d.atStep;
  }

  /** The label compute charged from now on carries ('forward', 'backward', 'optimizer'…). */
  setLabel(label: string): string {
    const before = this.#label;
    this.#label = label;
    return before;
  }

  /** Charges one tfjs kernel by the roofline (scaled when the run is charged as a larger model). */
  chargeKernel(call: KernelCall): void {
    // Under a named model the step's compute is the charged model's (chargeLayer), not the toy's kernels.
    if (this.#uncharged > 0 || this.#named) return;
    const asModel = this.#chargedAs !== null;
    const { cost, matmul } = tfjsKernelCost(call, asModel ? 'bfloat16' : 'float32');
    // Matmul FLOPs grow with parameters × tokens; bytes (and weight-sized elementwise work, such as the
    // optimizer) with parameters, so a charged matmul is as compute-bound as the large model's.
    const scaled = {
      flops: cost.flops * (matmul ? this.#scale.flops : this.#scale.params),
      bytes: cost.bytes * this.#scale.params,
    };
    if (scaled.flops === 0 && scaled.bytes === 0) return;
    const { seconds } = rooflineSeconds(scaled, this.shape.preset.gpu, {
      unit: matmul && asModel ? 'bf16-tensor' : 'fp32',
      efficiency: this.#efficiency,
    });
    if (matmul) this.#kernelModelFlops += scaled.flops;
    this.clock.charge(seconds, this.#label, labelMeta(this.#label));
  }

  /**
   * Runs `update` (a tfjs optimizer step over `elements` parameters) without charging its kernels, and
   * charges it as PyTorch's fused kernel instead: one fp32 pass over parameter, gradient and state,
   * scaled like other weight-sized work (× params / actual params when charged as a model). tfjs runs
   * Adam as a dozen separate kernels, which would bill each element's bytes many times over, and at bf16.
   */
  optimizerStep<T>(elements: number, stateSlots: number, update: () => T): T {
    const out = this.uncharged(update);
    if (this.#uncharged > 0) return out;
    const cost = fusedOptimizerCost(elements, stateSlots);
    const scaled = {
      flops: cost.flops * this.#scale.params,
      bytes: cost.bytes * this.#scale.params,
    };
    const { seconds } = rooflineSeconds(scaled, this.shape.preset.gpu, {
      unit: 'fp32',
      efficiency: this.#efficiency,
    });
    this.clock.charge(seconds, this.#label, labelMeta(this.#label));
    return out;
  }

  /** Charges explicit compute time; refused at the call if it is not a time the clock can add (issue 34, item 11). */
  compute(seconds: number, label?: string, meta?: SpanMeta): void {
    if (typeof seconds !== 'number' || !(seconds >= 0) || seconds > MAX_COMPUTE_SECONDS)
      throw new RangeError(
        `dist.simulation.compute: seconds must be a number from 0 to ${MAX_COMPUTE_SECONDS.toExponential()} (about 31,700 years), got ${String(seconds)}`,
      );
    if (this.#uncharged > 0) return;
    this.clock.charge(seconds, label ?? this.#label, meta);
  }

  /** Charges work of the charged model (bf16 tensor cores, the run's efficiency) by the roofline. */
  chargeWork(flops: number, bytes: number, label: string, meta: SpanMeta): void {
    if (this.#uncharged > 0) return;
    const { seconds } = rooflineSeconds({ flops, bytes }, this.shape.preset.gpu, {
      unit: 'bf16-tensor',
      efficiency: this.#efficiency,
    });
    this.clock.charge(seconds, label, meta);
  }

  /** The named model this run is charged as, if any. */
  get chargedModel(): ChargedModel | null {
    return this.#named;
  }

  /** Says which collective sizes the charged job used (shown with the step report). */
  setChargedSizes(text: string): void {
    this.#chargedSizes = text;
  }

  /** The configuration later steps belong to (e.g. 'overlap on'); reports take means per configuration. */
  setConfiguration(name: string): void {
    if (typeof name !== 'string' || name.trim() === '')
      throw new TypeError('dist.simulation.configuration(name): name must be a non-empty string');
    this.#configuration = name;
  }

  chargeAs(as: ChargeAs, actual: ActualSize): void {
    const named = as.model === undefined ? null : chargedModel(as.model);
    const params = as.params ?? named?.totalParams;
    if (named && as.params !== undefined && as.params !== named.totalParams)
      throw new RangeError(
        `chargeAs: ${as.model} has ${named.totalParams} parameters; leave out params or give exactly that`,
      );
    for (const [k, v] of Object.entries({
      params,
      tokensPerStep: as.tokensPerStep,
      'actual params': actual.params,
      'actual tokensPerStep': actual.tokensPerStep,
    }))
      if (v === undefined || !(v > 0) || !Number.isFinite(v))
        throw new RangeError(`chargeAs: ${k} must be a positive number, got ${v}`);
    const perElement = as.bytesPerElement ?? 2;
    if (!(perElement > 0)) throw new RangeError(`chargeAs: bytesPerElement must be > 0`);
    const p = params!;
    // Past these the scaled FLOPs and bytes of a step overflow to Infinity and a later collective fails
    // with an unrelated message; refused here, at the call, instead.
    for (const [k, v, max] of [
      ['params', p, MAX_CHARGED_PARAMS],
      ['tokensPerStep', as.tokensPerStep, MAX_CHARGED_TOKENS],
      ['bytesPerElement', perElement, 64],
    ] as const)
      if (v > max)
        throw new RangeError(
          `chargeAs: ${k} must be at most ${max.toExponential()} (far past any model trained), got ${v}`,
        );
    this.#named = named;
    this.#chargedAs = {
      params: p,
      tokensPerStep: as.tokensPerStep,
      ...(named ? { model: named.id } : {}),
    };
    this.#scale = {
      flops: (p * as.tokensPerStep) / (actual.params * actual.tokensPerStep),
      params: p / actual.params,
      bytes: (p / actual.params) * (perElement / 4),
    };
  }

  /**
   * A collective or send/recv issued now, in program order; undefined inside an uncharged region (the
   * call then takes no virtual time and the clock never waits for it).
   */
  issue(): IssuedCall | undefined {
    if (this.#ghost > 0) return undefined;
    const charged = this.#pendingCharge ?? undefined;
    this.#pendingCharge = null;
    return {
      ready: this.clock.mark(),
      work: {},
      byteScale: this.#bookkeeping ? 1 : this.#scale.bytes,
      ...(charged ? { charged } : {}),
    };
  }

  /** The clock interface's call: timed in virtual time, or untimed inside an uncharged region. */
  issueCall(): CallClock {
    const issued = this.issue();
    return issued ? new SimulatedCall(this, issued) : UNTIMED_CALL;
  }

  /** Issues the one collective `fn` starts timed as `call` of the charged job (its own bytes are only a carrier). */
  chargedCall<T>(call: ChargedCall, fn: () => T): T {
    this.#pendingCharge = call;
    try {
      return fn();
    } finally {
      this.#pendingCharge = null;
    }
  }

  /**
   * Runs `fn` (sync, or async until its promise settles) as work that is not part of the job: its kernels cost nothing and its
   * collectives take no virtual time (a reference check, the toy's data under a charged model).
   */
  unchargedRegion<T>(fn: () => T): T {
    this.#uncharged++;
    this.#ghost++;
    const end = () => {
      this.#uncharged--;
      this.#ghost--;
    };
    let out: T;
    try {
      out = fn();
    } catch (err) {
      end();
      throw err;
    }
    // An async region lasts until its promise settles; a synchronous one (inside tf.grads) ends here.
    if (out instanceof Promise)
      return out.then(
        (v: unknown) => (end(), v),
        (err: unknown) => {
          end();
          throw err;
        },
      ) as T;
    end();
    return out;
  }

  /** Synchronous form of unchargedRegion for the calls `fn` issues before it returns. */
  ghost<T>(fn: () => T): T {
    this.#ghost++;
    try {
      return fn();
    } finally {
      this.#ghost--;
    }
  }

  /**
   * Places charged collectives on the communication stream whose arrivals every member already agreed
   * on (the latest member's issue time each, exchanged in one call): each starts at its agreed arrival or
   * when the stream frees, in order. Returns what the compute stream waits on for all of them.
   */
  scheduleAgreed(
    calls: readonly { call: ChargedCall; arrival: number }[],
    members: readonly number[],
  ): PendingEnd {
    let end = this.#commFree;
    for (const { call, arrival } of calls) {
      const start = Math.max(arrival, this.#commFree);
      const p = groupCollectivePrediction(this.shape, call.collective, call.bytes, members);
      end = start + p.seconds;
      this.#commFree = end;
      this.#stepComm += p.seconds;
      this.#busy.push([start, end]);
      this.#push(this.#commEvent(start, end, call.name, call.bytes, p, call.index));
    }
    return { end };
  }

  /** Runs `fn` without charging its kernels (work the modelled framework would not do, e.g. a recompute). */
  uncharged<T>(fn: () => T): T {
    this.#uncharged++;
    try {
      return fn();
    } finally {
      this.#uncharged--;
    }
  }

  /** Calls `fn` with charge-as off for the collectives it issues (the runtime's own row count, not model data). */
  bookkeeping<T>(fn: () => T): T {
    this.#bookkeeping = true;
    try {
      return fn();
    } finally {
      this.#bookkeeping = false;
    }
  }

  /** Where this call starts on the communication stream: after its issue and the stream's previous call. */
  arrival(ready: number): number {
    return Math.max(ready, this.#commFree);
  }

  /** The model's prediction for a call: the charged collective it stands for, or its own bytes (4 each, scaled). */
  collectivePrediction(
    cost: CollectiveCost,
    length: number,
    members: readonly number[],
    issued: IssuedCall,
  ): CollectivePrediction {
    // The registry entry's algorithm (if it forces one) times the call, charged or not.
    const forced = cost.algorithm ? { algorithm: cost.algorithm } : {};
    if (issued.charged)
      return groupCollectivePrediction(
        this.shape,
        issued.charged.collective,
        issued.charged.bytes,
        members,
        issued.charged.collective === cost.collective ? forced : {},
      );
    const bytes = cost.bytes(length * 4 * issued.byteScale, members.length);
    return groupCollectivePrediction(this.shape, cost.collective, bytes, members, forced);
  }

  /** Modelled bytes of a call, for its trace span. */
  modelBytes(cost: CollectiveCost, length: number, members: number, byteScale: number): number {
    return cost.carriesData ? cost.bytes(length * 4 * byteScale, members) : 0;
  }

  /** Modelled bytes of a send or receive, for its trace span: its own bytes, scaled. */
  pointToPointBytes(length: number, byteScale: number): number {
    return length * 4 * byteScale;
  }

  /** Every member arrived: the call ends at `end` on this rank's communication stream. */
  complete(
    work: PendingEnd,
    arrival: number,
    end: number,
    prediction: CollectivePrediction,
    name: string,
    bytes: number,
    index?: number,
    lateRanks: readonly number[] = [],
  ): void {
    this.#commFree = end;
    this.#stepComm += prediction.seconds;
    const start = end - prediction.seconds;
    this.#busy.push([start, end]);
    // Before the collective runs, this rank idles until its last peer arrives: drawn apart, not as communication.
    if (start > arrival && lateRanks.length)
      this.#push({
        rank: this.rank,
        lane: 'comm',
        name: `waiting for rank${lateRanks.length === 1 ? '' : 's'} ${lateRanks.join(', ')}`,
        start: arrival,
        end: start,
        step: this.#step,
        kind: 'idle',
        ...(this.#configuration === undefined ? {} : { configuration: this.#configuration }),
      });
    this.#push(this.#commEvent(Math.max(arrival, start), end, name, bytes, prediction, index));
    work.end = end;
    this.clock.advance();
  }

  #commEvent(
    start: number,
    end: number,
    name: string,
    bytes: number,
    p: CollectivePrediction,
    index?: number,
  ): VirtualTraceEvent {
    return {
      rank: this.rank,
      lane: 'comm',
      name,
      start,
      end,
      step: this.#step,
      bytes,
      kind: 'collective',
      collective: p.collective,
      algorithm: p.algorithm,
      protocol: p.protocol,
      busGBps: p.busbw,
      ...(index === undefined ? {} : { index }),
      ...(this.#configuration === undefined ? {} : { configuration: this.#configuration }),
    };
  }

  /** Send and receive time between this rank and `peer`: one hop of the topology. */
  sendRecvSeconds(from: number, to: number, length: number, byteScale: number): number {
    return predictSendRecv(this.shape, from, to, length * 4 * byteScale).seconds;
  }

  /** Point-to-point streams are per peer and direction, so they do not wait behind collectives. */
  p2pArrival(ready: number, key: string): number {
    return Math.max(ready, this.#p2pFree.get(key) ?? 0);
  }

  completeP2p(
    work: PendingEnd,
    key: string,
    arrival: number,
    end: number,
    name: string,
    bytes: number,
  ): void {
    this.#p2pFree.set(key, end);
    this.#finishComm(work, arrival, end, end - arrival, name, bytes);
  }

  /** Counts `seconds` of communication in this step, draws the span, and releases what waits on `work`. */
  #finishComm(
    work: PendingEnd,
    arrival: number,
    end: number,
    seconds: number,
    name: string,
    bytes: number,
  ): void {
    this.#stepComm += seconds;
    this.#busy.push([end - seconds, end]);
    this.#push({
      rank: this.rank,
      lane: 'comm',
      name,
      start: arrival,
      end,
      step: this.#step,
      bytes,
      kind: 'p2p',
      collective: 'send-recv',
      ...(this.#configuration === undefined ? {} : { configuration: this.#configuration }),
    });
    work.end = end;
    this.clock.advance();
  }

  /** The compute stream waits for `work` here, in program order (an untimed call has nothing to wait for). */
  waitFor(work: PendingEnd | undefined): void {
    if (work) this.clock.wait(work);
  }

  /** Ends the step once the waits before it resolved; a rank planned to die at the next step parks. */
  async endStep(): Promise<void> {
    const end = await this.clock.mark();
    this.clock.flush();
    const computeNow = this.clock.computeSeconds;
    const exposedNow = this.clock.exposedCommSeconds;
    const peerWaitNow = this.clock.peerWaitSeconds;
    const world = worldSize(this.shape);
    const asModel = this.#chargedAs;
    const report: VirtualStepRank = {
      rank: this.rank,
      step: this.#step,
      start: this.#stepStart,
      end,
      computeSeconds: computeNow - this.#stepCompute,
      commSeconds: this.#stepComm,
      exposedCommSeconds: exposedNow - this.#stepExposed,
      peerWaitSeconds: peerWaitNow - this.#stepPeerWait,
      // A step that charged no compute (a wait between phases, a checkpoint) trained nothing: no model FLOPs.
      modelFlops: asModel
        ? computeNow > this.#stepCompute
          ? (6 * asModel.params * asModel.tokensPerStep) / world
          : 0
        : this.#kernelModelFlops,
      peakFlops: peakFlops(this.shape.preset.gpu, asModel ? 'bf16-tensor' : 'fp32'),
      ...(asModel
        ? {
            chargedAs: {
              ...asModel,
              ...(this.#chargedSizes ? { sizes: this.#chargedSizes } : {}),
            },
          }
        : {}),
      ...(this.#configuration === undefined ? {} : { configuration: this.#configuration }),
    };
    // A named model's compute is charged by the training wrappers (chargeLayer), never by the toy's kernels: a
    // hand-written loop under one would report steps of communication alone, so say so once.
    if (this.#named && report.computeSeconds === 0 && !this.#saidNoModelCompute) {
      this.#saidNoModelCompute = true;
      this.#sinks.notice(
        `step ${report.step} charged no compute: chargeAs({ model: '${asModel?.model ?? ''}' }) charges compute through the training wrappers (DDP, FSDP, fullyShard, ZeRO) only. A hand-written loop can charge the same job with chargeAs({ params, tokensPerStep }) (its kernels are then scaled to the job) or dist.simulation.compute(seconds).`,
      );
    }
    this.flushTrace();
    this.#lastStep = report;
    this.#sinks.step(report);
    this.#step++;
    this.#stepStart = end;
    this.#stepCompute = computeNow;
    this.#stepExposed = exposedNow;
    this.#stepPeerWait = peerWaitNow;
    this.#stepComm = 0;
    this.#kernelModelFlops = 0;
    if (this.diesNow) await this.onDeath(this.#step);
  }

  /** Sends the spans not sent yet (at step ends and when the rank exits). */
  flushTrace(): void {
    if (this.#trace.length) this.#sinks.trace(this.#trace.splice(0));
  }

  /** The run ends: close the open compute span and send the rest. */
  finish(): void {
    this.clock.flush();
    this.flushTrace();
  }

  notice(text: string): void {
    this.#sinks.notice(text);
  }

  #push(e: VirtualTraceEvent): void {
    this.#trace.push(e);
    if (this.#trace.length >= TRACE_BATCH) this.flushTrace();
  }

  /** The reader's face of it: `dist.simulation`. */
  facade(): Simulation {
    return Object.freeze({
      cluster: Object.freeze({ ...this.options }),
      now: async () => this.clock.mark(),
      chargeAs: (as: ChargeAs, actual: ActualSize) => this.chargeAs(as, actual),
      compute: (seconds: number, label?: string) => this.compute(seconds, label),
      uncharged: <T>(fn: () => T) => this.unchargedRegion(fn),
      configuration: (name: string) => this.setConfiguration(name),
      endStep: () => this.endStep(),
      lastStep: () => (this.#lastStep ? { ...this.#lastStep } : null),
    });
  }
}
