/**
 * Every collective the engine runs, keyed by (collective, algorithm): how it runs over the shared memory,
 * and what it costs in virtual time (the cluster model's collective and the bytes nccl-tests would count).
 * A new algorithm is one entry here (plus its name in contract/protocol.ts if a reader may choose it).
 * The clock times a call by its entry's cost (simulation/rank-simulation.ts collectivePrediction): an
 * entry whose cost names an NCCL algorithm (`algorithm: 'tree'`, …) is timed as that algorithm, as
 * NCCL_ALGO forces it; one that names none is timed as NCCL's tuner would run it.
 * 'direct': every member reads the regions it needs straight from the shared memory, not around a ring.
 */
import type { CollectiveKind } from '../contract/protocol.ts';
import type { CollectiveCost } from '../simulation/rank-clock.ts';
import { ringAllReduceRound, twoShotAllReduceRound } from './all-reduce-algorithms.ts';
import {
  allGatherRounds,
  barrierRound,
  broadcastRounds,
  gatherRounds,
  reduceRounds,
  reduceScatterRounds,
  scatterRounds,
} from './shared-memory-algorithms.ts';

const ALL_REDUCE: CollectiveCost = { collective: 'all-reduce', bytes: (b) => b, carriesData: true };
const REDUCE_SCATTER: CollectiveCost = {
  collective: 'reduce-scatter',
  bytes: (b) => b,
  carriesData: true,
};
/** A gather or scatter moves what an all-gather of the same total moves out of (or into) one rank. */
const ALL_GATHER: CollectiveCost = {
  collective: 'all-gather',
  bytes: (b, n) => b * n,
  carriesData: true,
};
/** NCCL's reduce is a ring pipeline like broadcast's, in the other direction (busbw factor 1 for both). */
const BROADCAST: CollectiveCost = { collective: 'broadcast', bytes: (b) => b, carriesData: true };
/** torch.distributed.barrier on NCCL is an all-reduce of one element. */
const BARRIER: CollectiveCost = { collective: 'all-reduce', bytes: () => 4, carriesData: false };

interface AlgorithmEntry {
  run: (...args: never[]) => Promise<void>;
  cost: CollectiveCost;
}

export const COLLECTIVE_ALGORITHMS = {
  allReduce: {
    // 'ring' and 'two-shot' are this machine's shared-memory algorithms (the book's ring, and the CPU's
    // faster one): how the result is computed here, not a choice PyTorch offers on a GPU cluster, where
    // all_reduce reaches ncclAllReduce, which takes no algorithm (nccl.h) and runs its tuner's pick
    // unless the process sets NCCL_ALGO. So both are timed as the tuner's choice (no `algorithm`).
    ring: { run: ringAllReduceRound, cost: ALL_REDUCE },
    'two-shot': { run: twoShotAllReduceRound, cost: ALL_REDUCE },
  },
  reduceScatter: { direct: { run: reduceScatterRounds, cost: REDUCE_SCATTER } },
  allGather: { direct: { run: allGatherRounds, cost: ALL_GATHER } },
  broadcast: { direct: { run: broadcastRounds, cost: BROADCAST } },
  reduce: { direct: { run: reduceRounds, cost: BROADCAST } },
  scatter: { direct: { run: scatterRounds, cost: ALL_GATHER } },
  gather: { direct: { run: gatherRounds, cost: ALL_GATHER } },
  barrier: { direct: { run: barrierRound, cost: BARRIER } },
} as const satisfies Record<CollectiveKind, Record<string, AlgorithmEntry>>;

/** What a call costs: its descriptor's algorithm (all-reduce), or its kind's one algorithm. */
export function collectiveCost(kind: CollectiveKind, algorithm: string | null): CollectiveCost {
  const entries: Readonly<Record<string, AlgorithmEntry>> = COLLECTIVE_ALGORITHMS[kind];
  const entry = algorithm === null ? Object.values(entries)[0] : entries[algorithm];
  if (!entry) throw new Error(`${kind}: no algorithm '${String(algorithm)}' in the registry`);
  return entry.cost;
}
