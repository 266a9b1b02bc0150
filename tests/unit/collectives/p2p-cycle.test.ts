import { describe, expect, it } from 'vitest';
import type { CallBoard, PeerWait } from '../../../playground/collectives/call-board.ts';
import { p2pCycle } from '../../../playground/collectives/deadlock-detection.ts';

/** A board that answers only peerWait, from a table: what p2pCycle reads. */
const board = (marks: Record<number, PeerWait>) =>
  ({ peerWait: (r: number) => marks[r] ?? null }) as unknown as CallBoard;
const idle = () => false;

describe('a cycle of point-to-point waits', () => {
  it('follows sends and receives back to the asking rank', () => {
    const marks = { 1: { peer: 0, sending: true } };
    expect(p2pCycle(board(marks), 0, { peer: 1, sending: true }, idle, 4)).toEqual([
      { rank: 0, sending: true },
      { rank: 1, sending: true },
    ]);
  });

  it('is no cycle when a mark is stale: its wait is met and the rank has yet to wake (a logical rank awaiting its turn)', () => {
    // Rank 0 sends a long message to rank 1 chunk by chunk; rank 1's mark still says "recv from 0", but a chunk
    // is waiting for it, so it will move once it runs.
    const marks = { 1: { peer: 0, sending: false } };
    const chunkWaiting = (r: number, p: number, sending: boolean) =>
      !(r === 1 && p === 0 && !sending);
    expect(p2pCycle(board(marks), 0, { peer: 1, sending: true }, idle, 4, chunkWaiting)).toBeNull();
    expect(p2pCycle(board(marks), 0, { peer: 1, sending: true }, idle, 4)).not.toBeNull();
  });

  it('is no cycle when a member is busy computing or waits on a rank outside it', () => {
    expect(
      p2pCycle(
        board({ 1: { peer: 0, sending: false } }),
        0,
        { peer: 1, sending: false },
        (r) => r === 1,
        4,
      ),
    ).toBeNull();
    expect(
      p2pCycle(board({ 1: { peer: 2, sending: false } }), 0, { peer: 1, sending: false }, idle, 4),
    ).toBeNull();
  });
});
