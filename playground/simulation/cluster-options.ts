/**
 * A run's cluster options resolved once, by one function, for every reader: the CLI and the page when a
 * run starts (cluster/cluster-core.ts), each rank's simulated clock, and the book's figures. The defaults
 * a run does not choose are defined here and nowhere else.
 */
import type { SimulatedClusterOptions } from '../contract/protocol.ts';
import { clusterShape, worldSize, type ClusterShape } from './cluster-shape.ts';

/** Roofline efficiency when the run does not choose one: PaLM's 46.2 % MFU (Chowdhery et al. 2022, Table 3), rounded. */
export const DEFAULT_SIM_EFFICIENCY = 0.5;
/** PyTorch's default for NCCL process groups (ProcessGroupNCCL.hpp kProcessGroupNCCLDefaultTimeout, 10 min). */
export const DEFAULT_SIM_TIMEOUT_SECONDS = 600;

/** The options a run may give: nodes and GPUs per node default to the preset's. */
export type ClusterRequest = Omit<SimulatedClusterOptions, 'nodes' | 'gpusPerNode'> &
  Partial<Pick<SimulatedClusterOptions, 'nodes' | 'gpusPerNode'>>;

/**
 * Plain data (structured-clonable): the cluster resolves it once at run start and hands it to every rank in
 * its start message (rank/rank-protocol.ts RankStart), so no rank resolves the options again.
 */
export interface ResolvedCluster {
  /** The run's options as given, with nodes and GPUs per node filled in from the shape. */
  readonly options: SimulatedClusterOptions;
  /** The preset laid out as nodes × GPUs per node. */
  readonly shape: ClusterShape;
  /** nodes × GPUs per node: the run's world size. */
  readonly world: number;
  /** Fraction of peak FLOP/s a kernel reaches in the roofline, (0, 1]. */
  readonly efficiency: number;
  /** Virtual seconds a collective waits for a late member before it times out. */
  readonly timeoutSeconds: number;
}

/** Resolves a run's cluster; throws a RangeError naming the option that is out of range. */
export function resolveCluster(options: ClusterRequest): ResolvedCluster {
  const shape = clusterShape(options.preset, options.nodes, options.gpusPerNode);
  const efficiency = options.efficiency ?? DEFAULT_SIM_EFFICIENCY;
  if (!(efficiency > 0 && efficiency <= 1))
    throw new RangeError(`efficiency must be in (0, 1], got ${efficiency}`);
  return {
    options: { ...options, nodes: shape.nodes, gpusPerNode: shape.gpusPerNode },
    shape,
    world: worldSize(shape),
    efficiency,
    timeoutSeconds: options.collectiveTimeoutSeconds ?? DEFAULT_SIM_TIMEOUT_SECONDS,
  };
}
