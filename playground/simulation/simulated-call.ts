/**
 * One call in virtual time: its arrival on the rank's communication stream (or a point-to-point stream),
 * and its end once every member has arrived. Members exchange only arrival times (the collectives carry
 * them), so every member computes the same end = latest arrival + the model's duration.
 */
import type { CallClock, CollectiveTiming } from './rank-clock.ts';
import type { IssuedCall, RankSimulation } from './rank-simulation.ts';
import { formatBytes, virtualTimeoutMessage } from './virtual-call-text.ts';

export class SimulatedCall implements CallClock {
  readonly #sim: RankSimulation;
  readonly #issued: IssuedCall;

  constructor(sim: RankSimulation, issued: IssuedCall) {
    this.#sim = sim;
    this.#issued = issued;
  }

  get end() {
    return this.#issued.work;
  }

  async arrive(publish: (seconds: number) => void): Promise<number> {
    const arrival = this.#sim.arrival(await this.#issued.ready);
    publish(arrival);
    return arrival;
  }

  async complete(t: CollectiveTiming): Promise<void> {
    const sim = this.#sim;
    const issued = this.#issued;
    const { members, kind, length, cost } = t;
    const arrivals = await t.arrivals();
    const mine = arrivals[members.indexOf(sim.rank)]!;
    const latest = Math.max(...arrivals);
    if (latest - mine > sim.timeoutSeconds) {
      const late = members.filter((_, i) => arrivals[i]! > mine + sim.timeoutSeconds);
      t.fail(
        virtualTimeoutMessage(
          sim.rank,
          t.place,
          sim.timeoutSeconds,
          mine + sim.timeoutSeconds,
          late,
        ),
      );
    }
    const prediction = sim.collectivePrediction(cost, length, members, issued);
    const charged = issued.charged;
    const bytes = charged
      ? charged.bytes
      : sim.modelBytes(cost, length, members.length, issued.byteScale);
    const name = charged
      ? charged.name
      : kind === 'barrier'
        ? 'barrier'
        : `${kind} ${formatBytes(bytes)}`;
    sim.complete(
      issued.work,
      mine,
      latest + prediction.seconds,
      prediction,
      name,
      bytes,
      charged?.index,
      latest > mine ? members.filter((_, i) => arrivals[i] === latest) : [],
    );
  }

  async arrivePointToPoint(key: string): Promise<number> {
    return this.#sim.p2pArrival(await this.#issued.ready, key);
  }

  completeSend(dst: number, length: number, arrival: number): void {
    const sim = this.#sim;
    const issued = this.#issued;
    // An eager send: it ends when its bytes have crossed the link, whenever the receiver arrives.
    const end = arrival + sim.sendRecvSeconds(sim.rank, dst, length, issued.byteScale);
    const bytes = sim.pointToPointBytes(length, issued.byteScale);
    sim.completeP2p(
      issued.work,
      `send ${dst}`,
      arrival,
      end,
      `send → ${dst} ${formatBytes(bytes)}`,
      bytes,
    );
  }

  completeRecv(src: number, length: number, arrival: number, sent: number): void {
    const sim = this.#sim;
    const issued = this.#issued;
    const end =
      Math.max(arrival, sent) + sim.sendRecvSeconds(src, sim.rank, length, issued.byteScale);
    const bytes = sim.pointToPointBytes(length, issued.byteScale);
    sim.completeP2p(
      issued.work,
      `recv ${src}`,
      arrival,
      end,
      `recv ← ${src} ${formatBytes(bytes)}`,
      bytes,
    );
  }
}
