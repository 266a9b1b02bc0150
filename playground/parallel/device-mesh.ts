import type { Dist, ProcessGroupHandle } from '../collectives/dist-api.ts';

/** A 1-D or 2-D arrangement of the world's ranks, row-major, as `torch.distributed.device_mesh.init_device_mesh` builds it. */
export interface DeviceMesh {
  readonly shape: readonly number[];
  readonly meshDimNames: readonly string[];
}

/**
 * Describes a mesh of `shape` over ranks 0..n−1 in row-major order: `[8]` for FSDP over 8 ranks, `[2, 4]`
 * with names `['replicate', 'shard']` for HSDP (shard within each row of 4, replicate across the 2 rows).
 * @param shape Ranks per mesh dimension; their product must equal the world size where the mesh is used.
 * @param opts `meshDimNames`, one name per dimension (default `['shard']` or `['replicate', 'shard']`).
 * @returns The mesh; process groups are created when `fullyShard` uses it.
 * @example const mesh = initDeviceMesh([2, 2], { meshDimNames: ['replicate', 'shard'] });
 */
export function initDeviceMesh(
  shape: readonly number[],
  opts: { meshDimNames?: readonly string[] } = {},
): DeviceMesh {
  if (shape.length !== 1 && shape.length !== 2)
    throw new Error(
      `initDeviceMesh: fullyShard takes a 1-D or 2-D mesh, got ${shape.length} dimensions`,
    );
  if (!shape.every((n) => Number.isInteger(n) && n >= 1))
    throw new Error(
      `initDeviceMesh: every dimension must be a positive integer, got [${shape.join(', ')}]`,
    );
  const meshDimNames =
    opts.meshDimNames ?? (shape.length === 1 ? ['shard'] : ['replicate', 'shard']);
  if (meshDimNames.length !== shape.length)
    throw new Error(
      `initDeviceMesh: ${shape.length} dimensions need ${shape.length} names, got ${meshDimNames.length}`,
    );
  return { shape: [...shape], meshDimNames: [...meshDimNames] };
}

/** This rank's groups in a mesh: the ranks it shards with and (2-D) the ranks holding the same shard. */
export interface MeshGroups {
  /** Undefined means the whole world. */
  shard: ProcessGroupHandle | undefined;
  shardSize: number;
  shardRank: number;
  replicate: ProcessGroupHandle | null;
  /** Ranks of this rank's shard group, in order, for building sub-groups. */
  shardMembers: number[];
}

/** Creates (or finds) this rank's process groups for `mesh`, checking that it covers the world. */
export function meshGroups(dist: Dist, mesh: DeviceMesh | undefined): MeshGroups {
  const world = dist.worldSize;
  const shape = mesh?.shape ?? [world];
  const size = shape.reduce((a, b) => a * b, 1);
  if (size !== world)
    throw new Error(
      `fullyShard: the mesh [${shape.join(', ')}] has ${size} ranks but the world has ${world}`,
    );
  if (shape.length === 1)
    return {
      shard: undefined,
      shardSize: world,
      shardRank: dist.rank,
      replicate: null,
      shardMembers: Array.from({ length: world }, (_, r) => r),
    };
  const [rows, cols] = shape as [number, number];
  const row = Math.floor(dist.rank / cols);
  const col = dist.rank % cols;
  const shardMembers = Array.from({ length: cols }, (_, j) => row * cols + j);
  const replicateMembers = Array.from({ length: rows }, (_, i) => i * cols + col);
  return {
    shard: dist.newGroup(shardMembers),
    shardSize: cols,
    shardRank: col,
    replicate: dist.newGroup(replicateMembers),
    shardMembers,
  };
}
