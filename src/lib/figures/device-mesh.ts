/**
 * Where each dimension of a multi-dimensional device mesh lands on a cluster. init_device_mesh lays
 * ranks out row-major (torch.arange(world).view(mesh_shape) in torch/distributed/device_mesh.py), so
 * the last dimension holds consecutive ranks, and torchrun gives consecutive ranks to the GPUs of one
 * node. A dimension's groups therefore stay inside a node exactly when its size times the sizes of
 * every dimension after it fits in a node. torchtitan orders its mesh ["pp", "dp_replicate",
 * "dp_shard", "cp", "tp"] (torchtitan/distributed/parallel_dims.py), tensor parallelism innermost.
 */

export interface MeshDim {
  name: string;
  size: number;
}

export interface MeshDimPlacement extends MeshDim {
  /** Distance in ranks between neighbours of one group: the product of the later dimensions' sizes. */
  stride: number;
  /** Ranks one group spans, first to last: stride × (size − 1) + 1. */
  span: number;
  /** Whether every group of this dimension lies inside one node. */
  insideNode: boolean;
  /** Nodes one group touches. */
  nodesPerGroup: number;
}

export function placeMesh(dims: readonly MeshDim[], gpusPerNode: number): MeshDimPlacement[] {
  return dims.map((d, i) => {
    const stride = dims.slice(i + 1).reduce((p, x) => p * x.size, 1);
    const block = stride * d.size; // ranks covered by one group and everything inside it
    const insideNode = block <= gpusPerNode && gpusPerNode % block === 0;
    const nodesPerGroup = insideNode ? 1 : Math.min(d.size, Math.ceil(block / gpusPerNode));
    return { ...d, stride, span: stride * (d.size - 1) + 1, insideNode, nodesPerGroup };
  });
}

export function worldOf(dims: readonly MeshDim[]): number {
  return dims.reduce((p, d) => p * d.size, 1);
}
