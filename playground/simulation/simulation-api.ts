/**
 * The reader's face of virtual time (`dist.simulation`) and the charge-as sizes it takes, declared
 * beside the clock that implements them (rank-simulation.ts); collectives/dist-api.ts re-exports them.
 */
import type { SimulatedClusterOptions, VirtualStepRank } from '../contract/protocol.ts';

/**
 * Charge a small playground run as a larger model: compute and communication are scaled so a step
 * costs what the charged model's step would on the simulated cluster.
 */
export interface ChargeAs {
  /**
   * A named architecture ('llama-2-7b', 'llama-2-13b'; playground/simulation/charged-model.ts): the
   * training wrappers then cut DDP buckets and FSDP units from its parameter list, as PyTorch would,
   * and charge its layers' compute instead of the toy model's kernels.
   */
  model?: string;
  /** Parameters of the charged model, e.g. 7e9 (the named model's count when `model` is given). */
  params?: number;
  /** Tokens (rows) per optimizer step over all ranks, e.g. 4_194_304. */
  tokensPerStep: number;
  /** Bytes per gradient or parameter element on the wire; 2 (bf16) by default. */
  bytesPerElement?: number;
}

/** What the playground actually runs, the denominator of the scaling (the training wrappers fill it in). */
export interface ActualSize {
  /** Parameters of the real (small) model. */
  params: number;
  /** Rows per step over all ranks. */
  tokensPerStep: number;
}

/**
 * Virtual time on a simulated cluster (`dist.simulation`, null in a real-time run). Compute is every tfjs
 * kernel charged by the roofline; collectives end at the last member's arrival plus the model's time.
 */
export interface Simulation {
  /** The cluster this run simulates. */
  readonly cluster: Readonly<SimulatedClusterOptions>;
  /**
   * This rank's compute-stream clock in virtual seconds, once everything it waited on has finished.
   * @example const t0 = await dist.simulation.now(); … console.log(`${(await dist.simulation.now()) - t0} s`);
   */
  now(): Promise<number>;
  /**
   * Charge from now on as a larger model: each matmul/conv kernel's FLOPs and bytes × (params ×
   * tokensPerStep) / (actual.params × actual.tokensPerStep), other kernels' × params / actual.params,
   * each collective's bytes × (params / actual.params) ×
   * (bytesPerElement / 4). MFU is then 6 × params × tokensPerStep per step. Wrappers take `{ chargeAs }`.
   * @example dist.simulation?.chargeAs({ params: 7e9, tokensPerStep: 4_194_304 }, { params: 1_000, tokensPerStep: 64 });
   */
  chargeAs(as: ChargeAs, actual: ActualSize): void;
  /** Charge `seconds` of compute to this rank's compute stream (before slowdown and jitter). */
  compute(seconds: number, label?: string): void;
  /**
   * Runs `fn` as work that is not part of the simulated job (a single-device reference check, a
   * recompute PyTorch would not do): its kernels cost nothing and its collectives take no virtual time.
   * Synchronous `fn` returns its value; an async one's region lasts until its promise settles.
   * @example const ref = await (dist.simulation?.uncharged(trainReference) ?? trainReference());
   */
  uncharged<T>(fn: () => T): T;
  /**
   * Names the set-up the next steps belong to (e.g. 'overlap on'): the step report takes its means per
   * configuration, never across two.
   * @example dist.simulation?.configuration('prefetch off');
   */
  configuration(name: string): void;
  /**
   * Ends this rank's current step and reports it (step time, compute, communication, exposed
   * communication, model FLOPs). DDP, ZeRO and FSDP call it at the end of `step()`.
   */
  endStep(): Promise<void>;
  /**
   * This rank's report of the last step it ended, or null before the first: its step time is
   * `end - start`; `exposedCommSeconds` is what overlap did not hide.
   * @example await fsdp.trainStep(x, y); const r = dist.simulation?.lastStep(); console.log(r && r.exposedCommSeconds);
   */
  lastStep(): VirtualStepRank | null;
}
