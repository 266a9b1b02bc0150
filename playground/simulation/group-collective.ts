/**
 * A collective over some of the ranks, timed on the nodes the group spans (a sub-group inside one node
 * runs on NVLink alone).
 */
import {
  predictCollective,
  type Collective,
  type CollectivePrediction,
  type PredictOptions,
} from './collective-model.ts';
import { clusterShape, nodeOfRank, type ClusterShape } from './cluster-shape.ts';

/** The model's prediction for a collective over `members`: a sub-group is timed on the nodes it spans. */
export function groupCollectivePrediction(
  shape: ClusterShape,
  kind: Collective,
  bytes: number,
  members: readonly number[],
  opts: PredictOptions = {},
): CollectivePrediction {
  const nodes = new Map<number, number>();
  for (const r of members)
    nodes.set(nodeOfRank(shape, r), (nodes.get(nodeOfRank(shape, r)) ?? 0) + 1);
  const sub = clusterShape(shape.preset, Math.max(1, nodes.size), Math.max(1, ...nodes.values()));
  // One member moves nothing: predictCollective gives 0 s for a world of one.
  return predictCollective(
    members.length < 2 ? clusterShape(shape.preset, 1, 1) : sub,
    kind,
    bytes,
    opts,
  );
}

/** The model's time for a collective over `members`. */
export function groupCollectiveSeconds(
  shape: ClusterShape,
  kind: Collective,
  bytes: number,
  members: readonly number[],
): number {
  return groupCollectivePrediction(shape, kind, bytes, members).seconds;
}
