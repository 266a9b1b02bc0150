import { describeCall, type CallDescriptor } from './call-descriptor.ts';
import type { PublishedCall } from './call-board.ts';

/** How every collective failure is worded: each message names the ranks, the calls and the rule broken. */

export function groupName(slot: number, members: readonly number[]): string {
  return slot === 0 ? 'the world group' : `group [${members.join(', ')}]`;
}

/** `where`: e.g. "allReduce(op=sum, 4 float32, ring) on the world group (call #3)". */
export function callPlace(desc: CallDescriptor, group: string, seq: number): string {
  return `${describeCall(desc)} on ${group} (call #${seq})`;
}

export function describeRank(rank: number, call: PublishedCall, group: string): string {
  if (call.state === 0) return `rank ${rank} has made no collective call yet`;
  const where = callPlace(call.desc, group, call.seq);
  return call.state === 1
    ? `rank ${rank} is inside ${where}`
    : `rank ${rank} last called ${where}, which it finished`;
}

export function mismatchMessage(
  group: string,
  seq: number,
  me: number,
  mine: CallDescriptor,
  peer: number,
  theirs: CallDescriptor,
  differences: string[],
): string {
  return `Mismatched collectives on ${group} at call #${seq}: rank ${me} called ${describeCall(mine)} but rank ${peer} called ${describeCall(theirs)} (they differ in ${differences.join(', ')}). Every rank of a group must make the same collective calls in the same order.`;
}

export function deadlockMessage(
  me: number,
  where: string,
  peer: number,
  peerState: string,
): string {
  return `Deadlock: rank ${me} is in ${where} waiting for rank ${peer}, but ${peerState}, which needs rank ${me} first. The ranks made collective calls in different orders.`;
}

export function collectiveTimeoutMessage(
  me: number,
  seconds: string,
  where: string,
  behind: number[],
  states: string[],
): string {
  return `Collective timed out: rank ${me} waited ${seconds} s in ${where} with no progress. Not arrived: ${behind.map((r) => `rank ${r}`).join(', ')}. ${states.join('; ')}.`;
}

/** Said once per wait, as a warning: the run goes on, bounded by its time limit. */
export function busyPeerNotice(me: number, seconds: string, where: string, peer: number): string {
  return `rank ${me} has waited ${seconds} s in ${where} for rank ${peer}, which is busy computing outside any collective (its thread has not yielded for a while, running tfjs ops). Still waiting: a long computation is fine, however long, within the run's time limit.`;
}

/** How a peer's state reads after "rank k last called …" in an error: what its thread is doing now. */
export function livenessPhrase(
  state: 'exited' | 'starting' | 'inside' | 'computing' | 'waiting',
): string {
  switch (state) {
    case 'exited':
      return ', and its program has exited';
    case 'starting':
      return ', and it is still starting';
    case 'computing':
      return ', and it is computing (its thread has not yielded for a while)';
    case 'waiting':
      return ', and it is waiting (its event loop answers: it awaits timers, I/O or a promise)';
    default:
      return '';
  }
}

/** Said once per wait, as a warning: a peer outside any collective whose event loop answers is alive. */
export function waitingPeerNotice(
  me: number,
  seconds: string,
  where: string,
  peer: number,
): string {
  return `rank ${me} has waited ${seconds} s in ${where} for rank ${peer}, which is waiting outside any collective (its event loop answers: it awaits timers, I/O or a promise). Still waiting, within the run's time limit.`;
}

/** A peer whose program ended while another waits for it: it will never arrive. */
export function exitedPeerMessage(me: number, where: string, peer: number, state: string): string {
  return `Rank ${peer} has exited (its program ended) while rank ${me} waits for it in ${where}: ${state}. Every rank of a group must make the same collective calls; a rank that returns early (or calls process.exit) never arrives.`;
}

/** A peer whose thread has run a whole watchdog period with no tfjs op and no collective: an endless loop, not a computation. */
export function spinningPeerMessage(
  me: number,
  where: string,
  peer: number,
  seconds: number,
  /** The rank waited for, when it shares its thread with the spinning `peer`. */
  via?: number,
): string {
  const waits =
    via === undefined || via === peer
      ? `rank ${me} waits for it`
      : `rank ${me} waits for rank ${via} (which shares its thread)`;
  return `Rank ${peer} looks stuck in an endless loop: its thread has run ${seconds.toFixed(1)} s without yielding, calling a tfjs op or a collective, while ${waits} in ${where}. A computation runs tfjs ops as it goes; a loop that only spins (while (true) {}, or waiting on a condition that never changes) never reaches its next collective.`;
}

export function p2pCycleMessage(
  chain: readonly { rank: number; sending: boolean }[],
  mailboxBytes: number,
): string {
  const ranks = chain.map((l) => l.rank);
  const next = (i: number) => ranks[(i + 1) % ranks.length];
  if (chain.every((l) => !l.sending)) {
    const waits = ranks.map((r, i) => `rank ${r} waits for rank ${next(i)}`).join(', ');
    return `Deadlock: ranks ${ranks.join(', ')} are each blocked in recv from the next (${waits}), so none of them ever sends: a cycle of receives. Start the exchange with a send (send returns once the message is in the mailbox), or let even and odd ranks take turns.`;
  }
  const waits = chain
    .map((l, i) =>
      l.sending
        ? `rank ${l.rank} is in a send to rank ${next(i)} that waits for it to receive`
        : `rank ${l.rank} is in recv from rank ${next(i)}`,
    )
    .join(', ');
  return `Deadlock: ranks ${ranks.join(', ')} are each blocked on the next (${waits}). A send returns once its message is in the pair's mailbox (${mailboxBytes.toLocaleString('en-US')} bytes at this world size); a longer message waits for the receiver, as a large NCCL or Gloo send waits for its matching recv. Let even ranks send first and odd ranks receive first, or split the message.`;
}

export function pointToPointTimeoutMessage(seconds: string, what: string): string {
  return `Point-to-point timed out after ${seconds} s: ${what}`;
}

export function sendRecvMismatchMessage(
  src: number,
  total: number,
  theirDtype: string,
  me: number,
  length: number,
  dtype: string,
): string {
  return `Mismatched send/recv: rank ${src} sent ${total} ${theirDtype} to rank ${me}, which called recv expecting ${length} ${dtype}.`;
}

export function rankFailedMessage(
  rank: number,
  kind: string,
  seq: number,
  group: string,
  message: string,
): string {
  return `rank ${rank} failed in ${kind} (call #${seq} on ${group}): ${message}`;
}

export function mailboxesExhaustedMessage(
  src: number,
  dst: number,
  mailboxes: number,
  worldSize: number,
): string {
  return `Point-to-point: rank ${src} → rank ${dst} needs a mailbox, and all ${mailboxes} of this ${worldSize}-rank world are taken (a world above 16 ranks has 16 a rank: one for each distinct sender → receiver pair). Exchange with fewer distinct peers (a ring, a tree), or use a collective (allToAll, allGather, scatter).`;
}
