import type { CallDescriptor, Dtype } from './call-descriptor.ts';
import type { CollectiveEngine } from './collective-engine.ts';
import { blockingCall, DeadlockSuspicion } from './deadlock-detection.ts';
import {
  busyPeerNotice,
  exitedPeerMessage,
  spinningPeerMessage,
  waitingPeerNotice,
  callPlace,
  collectiveTimeoutMessage,
  deadlockMessage,
} from './failure-messages.ts';
import { WatchdogClock } from './peer-liveness.ts';
import type { GroupInfo } from './group-registry.ts';
import type { WaitMode } from './world-sync.ts';
import type { CollectiveTiming } from '../simulation/rank-clock.ts';
import { collectiveCost } from './collective-algorithms.ts';
import { virtualTimeoutMessage } from '../simulation/virtual-call-text.ts';

/** A group's calls on this rank: the next sequence number, and progress steps completed by every call so far. */
export interface GroupSequence {
  seq: number;
  steps: number;
}

/** One collective call in flight on this rank: its group, sequence number and the progress steps it has made. */
export class CollectiveRun {
  readonly n: number;
  readonly idx: number;
  steps = 0;
  /** This rank's virtual arrival at the call, in a simulated run. */
  virtualArrival = 0;
  /** Steps made before the current round; `until` counts from here. */
  #roundBase = 0;
  readonly #compared = new Set<number>();
  /** Every member's descriptor for this call matched ours (checked once, after the first barrier). */
  #allCompared = false;
  readonly #myIndex: number;
  readonly #arrivedIndex: number;

  readonly engine: CollectiveEngine;
  readonly group: GroupInfo;
  readonly desc: CallDescriptor;
  readonly mode: WaitMode;
  readonly seq: number;
  readonly base: number;

  constructor(
    engine: CollectiveEngine,
    group: GroupInfo,
    desc: CallDescriptor,
    mode: WaitMode,
    seq: number,
    base: number,
  ) {
    this.engine = engine;
    this.group = group;
    this.desc = desc;
    this.mode = mode;
    this.seq = seq;
    this.base = base;
    this.n = group.members.length;
    this.idx = group.indexOf(engine.rank);
    this.#myIndex = engine.progressIndex(group.slot, engine.rank);
    this.#arrivedIndex = engine.arrivedIndex(group.slot);
  }

  get dtype(): Dtype {
    return this.desc.dtype;
  }

  /** Global rank of the member `offset` places after this one in the group's ring. */
  member(offset: number): number {
    return this.group.members[(((this.idx + offset) % this.n) + this.n) % this.n]!;
  }

  region(rank: number): number {
    return this.engine.regionOffset(rank);
  }

  /** Announces that this rank finished one more step of the call (to its peers and to the group's count). */
  arrive(): void {
    this.steps++;
    this.engine.sync.bump(this.#myIndex);
    this.engine.sync.bumpShared(this.#arrivedIndex, this.n);
  }

  /** Large payloads go in rounds that fit a region; step numbers in `until` are relative to the round. */
  startRound(): void {
    this.#roundBase = this.steps;
  }

  /** Waits until `peer` has completed `stepsDone` steps of the current round. */
  until(peer: number, stepsDone: number): void | Promise<void> {
    const r = this.waitOn(this.group, peer, this.base + this.#roundBase + stepsDone);
    if (r) return r.then(() => this.#verify(peer));
    this.#verify(peer);
  }

  /**
   * A barrier: waits until every other member has completed `stepsDone` steps, where every member waits at this
   * same step. It waits on the group's arrival count alone (one word, whatever the group's size): no member
   * passes this step before all reached it, so no member is beyond it while one is short of it, and a count of
   * n × the step means every member is there. A step only some members wait at (a root collecting) uses untilEach.
   */
  untilAll(stepsDone: number): void | Promise<void> {
    const target = this.base + this.#roundBase + stepsDone;
    if (this.n === 1) return;
    // Past the barrier every member has published this call: compare once.
    const verifyAll = () => {
      if (this.#allCompared) return;
      this.verifyArrived();
      this.#allCompared = true;
    };
    const w = this.#waitArrived(target);
    if (w) return w.then(verifyAll);
    verifyAll();
  }

  /** Waits until every other member has completed `stepsDone` steps, one member after another. */
  untilEach(stepsDone: number): void | Promise<void> {
    const target = this.base + this.#roundBase + stepsDone;
    const w = this.waitEach(this.group, target);
    const verify = () => {
      for (const m of this.group.members) this.#verify(m);
    };
    if (w) return w.then(verify);
    verify();
  }

  /**
   * Waits until every other member of `group` has reached `target`: the members still short of it from the last
   * to the first, looking again after each wait. Ranks sharing a thread run in rank order, so waiting for the
   * last one first usually finds the others there: a few wake-ups, not one per member (1,023 at 1,024 ranks).
   */
  waitEach(group: GroupInfo, target: number): void | Promise<void> {
    const e = this.engine;
    const behind = () => {
      const members = group.members;
      for (let i = members.length - 1; i >= 0; i--) {
        const m = members[i]!;
        if (m !== e.rank && e.sync.value(e.progressIndex(group.slot, m)) < target) return m;
      }
      return undefined;
    };
    if (this.mode === 'block') {
      for (let m = behind(); m !== undefined; m = behind()) this.waitOn(group, m, target);
      return;
    }
    const first = behind();
    if (first === undefined) return;
    return (async () => {
      for (let m: number | undefined = first; m !== undefined; m = behind())
        await this.waitOn(group, m, target);
    })();
  }

  /** Waits for the group's arrival count to reach n × `target`; checks as waitOn does, on the first member behind. */
  #waitArrived(target: number): void | Promise<void> {
    const e = this.engine;
    const group = this.group;
    const suspicion = new DeadlockSuspicion();
    const watchdog = new WatchdogClock();
    const check = (stalledMs: number) => {
      if (stalledMs === 0) return e.throwIfPoisoned();
      const behind = group.members.find(
        (m) => m !== e.rank && e.sync.value(e.progressIndex(group.slot, m)) < target,
      );
      if (behind !== undefined)
        this.#checkWait(group, behind, target, stalledMs, suspicion, watchdog);
      else e.throwIfPoisoned();
    };
    return e.sync.wait(this.mode, this.#arrivedIndex, this.n * target, check);
  }

  /** Declares that this round wrote this rank's region: peers read it until they reach the current step. */
  endRound(): void {
    this.engine.recordRegionUse(this.group, this.base + this.steps);
  }

  #verify(peer: number): void {
    if (peer === this.engine.rank || this.#compared.has(peer)) return;
    if (this.engine.compareWithPeer(this, peer)) this.#compared.add(peer);
  }

  /**
   * Compares this call with the group's first member's and the next member's, when they have published it (ranks
   * that never wait still catch mismatches); the first member compares with every member. Two members that
   * differ differ from the first member, so some rank sees every difference, and a rank of a 1,024-rank group
   * reads two descriptors a call, not 1,023.
   */
  verifyArrived(): void {
    if (this.#allCompared) return;
    const members = this.group.members;
    if (this.idx === 0) for (const m of members) this.#verify(m);
    else {
      this.#verify(members[0]!);
      this.#verify(this.member(1));
    }
  }

  get place(): string {
    return callPlace(this.desc, this.engine.groupName(this.group), this.seq);
  }

  /** What the rank's clock needs to time this call: its shape, and every member's published arrival. */
  timing(): CollectiveTiming {
    const e = this.engine;
    const members = this.group.members;
    const place = () => this.place;
    return {
      kind: this.desc.kind,
      cost: collectiveCost(this.desc.kind, this.desc.algorithm),
      length: this.desc.length,
      members,
      get place() {
        return place();
      },
      // Each member's first step in this call comes after it published its arrival.
      arrivals: async () => {
        await this.waitEach(this.group, this.base + 1);
        return members.map((m) =>
          m === e.rank ? this.virtualArrival : e.readArrival(this.group.slot, m, this.seq),
        );
      },
      fail: (message) => e.fail(message),
    };
  }

  /** Waits for `peer`'s progress in `group` to reach `target`, failing loudly on poison, mismatch, deadlock or silence. */
  waitOn(group: GroupInfo, peer: number, target: number): void | Promise<void> {
    const e = this.engine;
    const index = e.progressIndex(group.slot, peer);
    if (e.sync.value(index) >= target) return; // there already: nothing to watch
    const suspicion = new DeadlockSuspicion();
    const watchdog = new WatchdogClock();
    const check = (stalledMs: number) =>
      this.#checkWait(group, peer, target, stalledMs, suspicion, watchdog);
    return e.sync.wait(this.mode, index, target, check);
  }

  /** One look at a wait for `peer` that has made no progress for `stalledMs`: fails loudly on poison, mismatch, deadlock or silence. */
  #checkWait(
    group: GroupInfo,
    peer: number,
    target: number,
    stalledMs: number,
    suspicion: DeadlockSuspicion,
    watchdog: WatchdogClock,
  ): void {
    const e = this.engine;
    e.throwIfPoisoned();
    if (e.clock.virtual) this.#checkDead(group);
    if (group === this.group && stalledMs > 0) this.#verify(peer);
    const now = e.env.now();
    if (suspicion.confirmed(blockingCall(e.board, e.rank, this.group.slot, peer, e.nextSeq), now)) {
      e.fail(deadlockMessage(e.rank, this.place, peer, e.describeRank(peer)));
    }
    const verdict = watchdog.observe(stalledMs, e.world.watchdogMs, e.liveness.of(peer), now);
    if (verdict === 'busy-first')
      e.notice(busyPeerNotice(e.rank, (stalledMs / 1000).toFixed(1), this.place, peer));
    if (verdict === 'spin')
      e.fail(
        spinningPeerMessage(
          e.rank,
          this.place,
          e.liveness.culprit(peer),
          e.world.watchdogMs / 1000,
          peer,
        ),
      );
    if (verdict === 'waiting-first')
      e.notice(waitingPeerNotice(e.rank, (stalledMs / 1000).toFixed(1), this.place, peer));
    if (verdict === 'exited' && e.sync.value(e.progressIndex(group.slot, peer)) < target)
      e.fail(exitedPeerMessage(e.rank, this.place, peer, e.describeRank(peer)));
    // In virtual time a result must not depend on this machine's speed: no wall-clock watchdog there
    // (the run's time limit still bounds it; a planned death times out in virtual time, above).
    if (verdict === 'fire' && !e.clock.virtual) this.#watchdog(group, target, peer);
  }

  /** In a simulated run, a member that died (a planned fault) never arrives: time out as NCCL would, naming it. */
  #checkDead(group: GroupInfo): void {
    const e = this.engine;
    const dead = e.deadRanks();
    if (dead.length === 0) return;
    const missing = group.members.filter(
      (m) => dead.includes(m) && e.board.peerCall(group.slot, m, this.seq) === 'not-yet',
    );
    if (missing.length === 0) return;
    const timeout = e.clock.timeoutSeconds;
    e.fail(
      virtualTimeoutMessage(e.rank, this.place, timeout, this.virtualArrival + timeout, missing),
    );
  }

  #watchdog(group: GroupInfo, target: number, peer: number): never {
    const e = this.engine;
    const behind = group.members.filter(
      (m) => m !== e.rank && e.sync.value(e.progressIndex(group.slot, m)) < target,
    );
    if (!behind.includes(peer)) behind.unshift(peer);
    const seconds = (e.world.watchdogMs / 1000).toFixed(1);
    return e.fail(
      collectiveTimeoutMessage(
        e.rank,
        seconds,
        this.place,
        behind,
        behind.map((r) => e.describeRank(r)),
      ),
    );
  }
}
