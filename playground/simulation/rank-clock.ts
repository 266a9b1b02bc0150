/**
 * The one clock a rank's process group times its calls with, called unconditionally: real time on this
 * machine (a run without a preset: calls take no virtual time) or the simulated cluster's virtual time
 * (rank-simulation.ts). As ASTRA-sim puts its network behind one API, the collectives never ask which.
 */
import type { CollectiveKind } from '../contract/protocol.ts';
import type { Algorithm, Collective } from './collective-model.ts';
import type { PendingEnd } from './program-clock.ts';

export type { PendingEnd } from './program-clock.ts';

/**
 * What a collective is timed as: the cluster model's collective and the bytes it moves (nccl-tests'
 * size). Each entry of the collectives' registry (collectives/collective-algorithms.ts) carries one.
 */
export interface CollectiveCost {
  collective: Collective;
  /** nccl-tests' size from one rank's bytes (elements × 4 × the charge-as factor) and the group size. */
  bytes(rankBytes: number, groupSize: number): number;
  /** False for a call that moves no data (a barrier): its span shows no bytes. */
  carriesData: boolean;
  /**
   * The NCCL algorithm the call is timed as, forced as NCCL_ALGO forces it (collective-model.ts
   * predictCollective's `algorithm`); absent: NCCL's tuner picks the fastest, as it does for every call
   * that sets no NCCL_ALGO (ncclAllReduce in nccl.h takes no algorithm argument).
   */
  algorithm?: Algorithm;
}

/** What timing a collective needs from the collectives that carry it. */
export interface CollectiveTiming {
  kind: CollectiveKind;
  /** How the algorithm the call runs is timed. */
  cost: CollectiveCost;
  /** Elements of the call (the descriptor's length). */
  length: number;
  /** Global ranks of the group, ascending. */
  members: readonly number[];
  /** The call as messages name it, e.g. "allReduce #3 on the world". */
  place: string;
  /** Every member's arrival, in member order, once each published it (the collectives exchange them). */
  arrivals(): Promise<readonly number[]>;
  /** Poisons the world with `message` (a virtual timeout) and throws it. */
  fail(message: string): never;
}

/** One call's time, taken in program order when the program issues the call. */
export interface CallClock {
  /** The call's virtual end, set once it completes; undefined when the call takes no virtual time. */
  readonly end: PendingEnd | undefined;
  /** This rank's arrival on its communication stream; `publish` hands it to the peers before the call starts. */
  arrive(publish: (seconds: number) => void): number | Promise<number>;
  /** Every member arrived: the collective ends at the latest arrival plus the model's time. */
  complete(timing: CollectiveTiming): void | Promise<void>;
  /** This rank's arrival on the point-to-point stream `key` ('send 3', 'recv 1'). */
  arrivePointToPoint(key: string): number | Promise<number>;
  /** An eager send from this rank to `dst` of `length` elements that arrived at `arrival`. */
  completeSend(dst: number, length: number, arrival: number): void;
  /** A receive from `src` of `length` elements; `sent` is the sender's arrival. */
  completeRecv(src: number, length: number, arrival: number, sent: number): void;
}

export interface RankClock {
  /** True on a simulated cluster: calls are timed in virtual seconds (no wall-clock watchdog). */
  readonly virtual: boolean;
  /** Virtual seconds a collective waits for a late member before it times out (Infinity in real time). */
  readonly timeoutSeconds: number;
  /** A call issued now, in program order. */
  issueCall(): CallClock;
  /** The compute stream waits for `end` here, in program order (nothing to wait for in real time). */
  waitFor(end: PendingEnd | undefined): void;
}

/** A call that takes no virtual time: every call in real time, and calls inside an uncharged region. */
export const UNTIMED_CALL: CallClock = Object.freeze({
  end: undefined,
  arrive: () => 0,
  complete: () => {},
  arrivePointToPoint: () => 0,
  completeSend: () => {},
  completeRecv: () => {},
});

/** A run without a preset: its times are this machine's (the trace's milliseconds), none virtual. */
export const REAL_TIME_CLOCK: RankClock = Object.freeze({
  virtual: false,
  timeoutSeconds: Infinity,
  issueCall: () => UNTIMED_CALL,
  waitFor: () => {},
});
