import { DTYPES, type Dtype } from '../contract/protocol.ts';
import type { CollectiveEngine } from './collective-engine.ts';
import { DeadlockSuspicion, p2pCycle, RECV_CYCLE_CONFIRM_MS } from './deadlock-detection.ts';
import {
  busyPeerNotice,
  exitedPeerMessage,
  spinningPeerMessage,
  waitingPeerNotice,
  mailboxesExhaustedMessage,
  pointToPointTimeoutMessage,
  p2pCycleMessage,
  sendRecvMismatchMessage,
} from './failure-messages.ts';
import { WatchdogClock } from './peer-liveness.ts';
import {
  M_ARRIVAL_F64,
  M_CHUNK,
  M_DTYPE,
  M_MESSAGE,
  M_SENT,
  M_TAKEN,
  M_TOTAL,
  claimMailbox,
  mailboxCtrlIndex,
  mailboxOffset,
} from './layout.ts';
import { allocate, sharedView, type Payload } from './typed-views.ts';
import type { WaitMode } from './world-sync.ts';
import type { CallClock } from '../simulation/rank-clock.ts';
import { virtualTimeoutMessage } from '../simulation/virtual-call-text.ts';

/**
 * Point-to-point mailboxes: one slot per ordered pair (src → dst), from the world's pool on the pair's first use
 * (layout.ts, claimMailbox). A send returns once its last chunk is in the slot, so `send` then `recv` around a
 * ring does not deadlock; longer messages stream chunk by chunk.
 */
export class PointToPoint {
  private readonly sendChains = new Map<number, Promise<unknown>>();
  private readonly recvChains = new Map<number, Promise<unknown>>();
  private readonly sentChunks = new Map<number, number>();
  private readonly takenChunks = new Map<number, number>();
  /** The mailbox of each pair this rank sent to or received from: (src × worldSize + dst) → its number. */
  private readonly mailboxes = new Map<number, { ctrl: number; slot: number }>();
  private messages = 0;
  /** Sends and receives not yet finished: while any is, collectives must not block the thread. */
  pending = 0;

  private readonly e: CollectiveEngine;
  /** The shared memory as Float64, for the sender's virtual arrival in each mailbox. */
  private readonly arrivals: Float64Array;

  constructor(engine: CollectiveEngine) {
    this.e = engine;
    this.arrivals = new Float64Array(engine.world.memory.buffer);
  }

  /** The control index and data offset of the mailbox of src → dst, claimed on the pair's first use. */
  private mailbox(src: number, dst: number): { ctrl: number; slot: number } {
    const e = this.e;
    const pair = src * e.worldSize + dst;
    let box = this.mailboxes.get(pair);
    if (!box) {
      const layout = e.world.layout;
      const m = claimMailbox(e.words, layout, e.worldSize, src, dst);
      if (m < 0) e.fail(mailboxesExhaustedMessage(src, dst, layout.mailboxes, e.worldSize));
      box = { ctrl: mailboxCtrlIndex(layout, m), slot: mailboxOffset(layout, m) };
      this.mailboxes.set(pair, box);
    }
    return box;
  }

  private chain<T>(
    chains: Map<number, Promise<unknown>>,
    peer: number,
    job: () => Promise<T>,
  ): Promise<T> {
    this.pending++;
    const run = () =>
      job().finally(() => {
        this.pending--;
      });
    const p = (chains.get(peer) ?? Promise.resolve()).then(run, run);
    chains.set(
      peer,
      p.catch(() => undefined),
    );
    return p;
  }

  /**
   * Waits for `peer` to move the mailbox counter at `index`; a peer busy computing is waited for, not timed
   * out. In a simulated run a peer that died (a planned fault) never will: time out as NCCL would, naming it,
   * at `arrival` (this call's virtual arrival) plus the timeout.
   */
  private wait(
    index: number,
    target: number,
    mode: WaitMode,
    peer: number,
    what: string,
    describe: () => string,
    receiving: boolean,
    arrival: number,
  ): void | Promise<void> {
    const e = this.e;
    const watchdog = new WatchdogClock();
    const suspicion = new DeadlockSuspicion(RECV_CYCLE_CONFIRM_MS);
    const check = (stalledMs: number) => {
      e.throwIfPoisoned();
      // Read after the dead mark: a peer that sent (or took) before dying has moved the counter already.
      if (
        e.clock.virtual &&
        e.deadRanks().includes(peer) &&
        Atomics.load(e.words, index) < target
      ) {
        const timeout = e.clock.timeoutSeconds;
        e.fail(virtualTimeoutMessage(e.rank, what, timeout, arrival + timeout, [peer]));
      }
      const cycle = p2pCycle(
        e.board,
        e.rank,
        { peer, sending: !receiving },
        (r) => e.liveness.busy(r),
        e.worldSize,
        (r, p, sending) => {
          const { ctrl } = sending ? this.mailbox(r, p) : this.mailbox(p, r);
          const sent = Atomics.load(e.words, ctrl + M_SENT);
          const taken = Atomics.load(e.words, ctrl + M_TAKEN);
          return sending ? taken < sent : sent <= taken;
        },
      );
      const key = cycle ? cycle.map((l) => `${l.rank}${l.sending ? 's' : 'r'}`).join(',') : null;
      if (suspicion.confirmed(key, e.env.now()))
        e.fail(p2pCycleMessage(cycle!, e.world.layout.mailboxBytes));
      const verdict = watchdog.observe(
        stalledMs,
        e.world.watchdogMs,
        e.liveness.of(peer),
        e.env.now(),
      );
      if (verdict === 'busy-first')
        e.notice(busyPeerNotice(e.rank, (stalledMs / 1000).toFixed(1), what, peer));
      if (verdict === 'spin')
        e.fail(
          spinningPeerMessage(
            e.rank,
            what,
            e.liveness.culprit(peer),
            e.world.watchdogMs / 1000,
            peer,
          ),
        );
      if (verdict === 'waiting-first')
        e.notice(waitingPeerNotice(e.rank, (stalledMs / 1000).toFixed(1), what, peer));
      if (verdict === 'exited' && Atomics.load(e.words, index) < target)
        e.fail(exitedPeerMessage(e.rank, what, peer, e.describeRank(peer)));
      if (verdict === 'fire' && !e.clock.virtual)
        e.fail(pointToPointTimeoutMessage((e.world.watchdogMs / 1000).toFixed(1), describe()));
    };
    return e.sync.wait(mode, index, target, check);
  }

  send(
    input: Payload | { dtype: Dtype; data: Promise<Payload> },
    dst: number,
    mode: WaitMode,
    call: CallClock,
  ): Promise<void> {
    const e = this.e;
    return this.chain(this.sendChains, dst, async () => {
      const data = ArrayBuffer.isView(input) ? input : await input.data;
      const arriving = call.arrivePointToPoint(`send ${dst}`);
      const arrival = typeof arriving === 'number' ? arriving : await arriving;
      const dtype: Dtype = data instanceof Int32Array ? 'int32' : 'float32';
      const { ctrl, slot } = this.mailbox(e.rank, dst);
      const per = e.world.layout.mailboxBytes >> 2;
      const chunks = Math.max(1, Math.ceil(data.length / per));
      const message = ++this.messages;
      const t0 = e.env.now();
      for (let k = 0; k < chunks; k++) {
        const sent = this.sentChunks.get(dst) ?? 0;
        // A chunk after the first waits for dst to take the one before: blocked on dst (cycle detection).
        if (Atomics.load(e.words, ctrl + M_TAKEN) < sent) e.board.setPeerWait(e.rank, dst, true);
        await this.wait(
          ctrl + M_TAKEN,
          sent,
          mode,
          dst,
          `send(${data.length} ${dtype}) to rank ${dst}`,
          () =>
            `rank ${e.rank} is sending ${data.length} ${dtype} to rank ${dst}, which has not received its previous message. ${e.describeRank(dst)}.`,
          false,
          arrival,
        );
        e.board.setPeerWait(e.rank, null, true, dst);
        const part = data.subarray(k * per, Math.min(data.length, (k + 1) * per));
        sharedView(e.bytes.buffer, dtype, slot, part.length).set(part);
        Atomics.store(e.words, ctrl + M_DTYPE, DTYPES.indexOf(dtype));
        Atomics.store(e.words, ctrl + M_TOTAL, data.length);
        Atomics.store(e.words, ctrl + M_CHUNK, part.length);
        if (call.end) this.arrivals[(ctrl >> 1) + M_ARRIVAL_F64] = arrival;
        Atomics.store(e.words, ctrl + M_MESSAGE, message);
        this.sentChunks.set(dst, sent + 1);
        e.sync.bump(ctrl + M_SENT);
      }
      call.completeSend(dst, data.length, arrival);
      e.count('send', data.length * 4, 0, true);
      e.trace({ kind: 'send', peer: dst, bytes: data.length * 4, start: t0, end: e.env.now() });
    });
  }

  recv(
    length: number,
    dtype: Dtype,
    src: number,
    mode: WaitMode,
    call: CallClock,
  ): Promise<Payload> {
    const e = this.e;
    return this.chain(this.recvChains, src, async () => {
      const arriving = call.arrivePointToPoint(`recv ${src}`);
      const arrival = typeof arriving === 'number' ? arriving : await arriving;
      let sent = 0;
      const { ctrl, slot } = this.mailbox(src, e.rank);
      const out = allocate(dtype, length);
      const t0 = e.env.now();
      let got = 0;
      do {
        const taken = this.takenChunks.get(src) ?? 0;
        e.board.setPeerWait(e.rank, src);
        await this.wait(
          ctrl + M_SENT,
          taken + 1,
          mode,
          src,
          `recv(${length} ${dtype}) from rank ${src}`,
          () =>
            `rank ${e.rank} is in recv(${length} ${dtype}) from rank ${src}, which has not sent. ${e.describeRank(src)}.`,
          true,
          arrival,
        );
        e.board.setPeerWait(e.rank, null, false, src);
        const theirDtype = DTYPES[Atomics.load(e.words, ctrl + M_DTYPE)] ?? 'float32';
        const total = Atomics.load(e.words, ctrl + M_TOTAL);
        if (theirDtype !== dtype || total !== length) {
          e.fail(sendRecvMismatchMessage(src, total, theirDtype, e.rank, length, dtype));
        }
        const len = Atomics.load(e.words, ctrl + M_CHUNK);
        if (got === 0 && call.end) sent = this.arrivals[(ctrl >> 1) + M_ARRIVAL_F64]!;
        out.set(sharedView(e.bytes.buffer, dtype, slot, len), got);
        got += len;
        this.takenChunks.set(src, taken + 1);
        e.sync.bump(ctrl + M_TAKEN);
      } while (got < length);
      call.completeRecv(src, length, arrival, sent);
      e.count('recv', 0, length * 4, true);
      e.trace({ kind: 'recv', peer: src, bytes: length * 4, start: t0, end: e.env.now() });
      return out;
    });
  }
}
