/**
 * The PyTorch names the twins may use, each checked against pytorch/pytorch on 2026-11-23 (file @ commit), so a twin
 * written for current PyTorch but not runnable on CI's torch 1.13 CPU (SyncBatchNorm, FSDP2) is still held to today's API.
 * CI's runs check the rest at run time.
 */
export const PYTORCH_API: { names: string[]; source: string }[] = [
  {
    names: [
      'dist.init_process_group',
      'dist.destroy_process_group',
      'dist.is_initialized',
      'dist.is_nccl_available',
      'dist.get_rank',
      'dist.get_world_size',
      'dist.new_group',
      'dist.all_reduce',
      'dist.all_gather',
      'dist.broadcast',
      'dist.reduce',
      'dist.scatter',
      'dist.gather',
      'dist.barrier',
      'dist.isend',
      'dist.recv',
      'dist.ReduceOp.SUM',
      'dist.ReduceOp.MAX',
      'dist.ReduceOp.MIN',
    ],
    source:
      'torch/distributed/distributed_c10d.py (public functions; ReduceOp from torch._C._distributed_c10d)',
  },
  {
    names: ['dist.reduce_scatter_tensor', 'dist.all_gather_into_tensor'],
    source:
      'torch/distributed/distributed_c10d.py; Gloo implements them as _reduce_scatter_base and _allgather_base in torch/csrc/distributed/c10d/ProcessGroupGloo.hpp @ 06b24a9d8bc29d5600435f56c66abc8734a8f574 (added by pytorch/pytorch#112144, #118911)',
  },
  {
    names: [
      'nn.SyncBatchNorm',
      'nn.SyncBatchNorm.convert_sync_batchnorm',
      'nn.BatchNorm1d',
      'nn.Linear',
      'nn.Sequential',
      'nn.ModuleList',
      'nn.Tanh',
      'nn.Module',
      'nn.Parameter',
      'nn.ParameterList',
    ],
    source:
      'torch/nn/modules/batchnorm.py @ 5c6695eeeec82353acf609f111efccf5281171c4 (SyncBatchNorm.forward accepts only cuda or PrivateUse1 inputs), torch/nn/modules/linear.py, container.py (Sequential, ModuleList, ParameterList), activation.py, module.py; torch/nn/parameter.py',
  },
  {
    names: [
      'torch.distributed.fsdp.fully_shard',
      'torch.distributed.fsdp.FSDPModule',
      'FSDPModule.set_modules_to_forward_prefetch',
      'FSDPModule.set_modules_to_backward_prefetch',
      'DTensor.full_tensor',
    ],
    source:
      'torch/distributed/fsdp/__init__.py (from ._fully_shard import FSDPModule, fully_shard, …), torch/distributed/fsdp/_fully_shard/_fully_shard.py (FSDPModule.set_modules_to_forward_prefetch / _backward_prefetch), torch/distributed/tensor/_api.py (DTensor.full_tensor); record_function names "FSDP::all_gather", "FSDP::post_forward", "FSDP::post_backward_reduce" in _fsdp_param_group.py / _fsdp_state.py',
  },
  {
    names: ['torch.nn.utils.clip_grad_norm_'],
    source:
      'torch/nn/utils/clip_grad.py @ 01a57d87bd4826d1f528b2dc47360a8087b34f5a (clip_coef = max_norm / (total_norm + 1e-6), clamped to 1; returns the total norm); FSDP1 FullyShardedDataParallel.clip_grad_norm_ in torch/distributed/fsdp/fully_sharded_data_parallel.py @ 005df1d67cc1ef418f8de75e9a9cbe860288a8ed all-reduces local_sharded_norm ** p',
  },
  {
    names: ['torch.utils.checkpoint.checkpoint'],
    source:
      'torch/utils/checkpoint.py (checkpoint(function, *args, use_reentrant=…); use_reentrant=False replays the forward when backward first unpacks a saved tensor, and torch 2.4+ warns unless use_reentrant is passed explicitly)',
  },
  {
    names: [
      'torch.distributed.checkpoint.save',
      'torch.distributed.checkpoint.load',
      'torch.distributed.checkpoint.DefaultLoadPlanner',
      'torch.distributed.checkpoint.FileSystemReader',
      'torch.distributed.checkpoint.metadata.MetadataIndex',
      'DefaultLoadPlanner.create_local_plan',
      'FileSystemReader.read_metadata',
      'Metadata.state_dict_metadata',
      'Metadata.storage_data',
      'TensorStorageMetadata.chunks',
      'ChunkStorageMetadata.offsets',
      'ChunkStorageMetadata.sizes',
      '_StorageInfo.relative_path',
      'ReadItem.storage_index',
      'ReadItem.storage_offsets',
      'ReadItem.lengths',
    ],
    source:
      'torch/distributed/checkpoint/__init__.py @ d2eec6ef2cdcd275a0e60457819d097578a246ff (save, load, DefaultLoadPlanner, FileSystemReader); state_dict_loader.py @ f13d1e638e40e2d81bae3fdf84b2ee7baf959344 (load(state_dict, *, checkpoint_id, storage_reader, planner, process_group); local_step calls planner.create_local_plan); planner.py @ 004000109f9a14e46efb73ff2a700bd52fc96f4a (ReadItem: dest_index, dest_offsets, storage_index, storage_offsets, lengths; LoadPlan.items); metadata.py (Metadata.state_dict_metadata / storage_data, TensorStorageMetadata.chunks, ChunkStorageMetadata offsets / sizes, MetadataIndex(fqn, offset) with index neither hashed nor compared); filesystem.py @ b639d82d83d41b747b1d856e49971674cf7e8fc5 (_StorageInfo.relative_path, files named _StoragePrefix f"__{i}_" + count + ".distcp")',
  },
  {
    names: [
      'torch.distributed.device_mesh.init_device_mesh',
      'DeviceMesh.get_local_rank',
      'torch.distributed.tensor.Shard',
      'torch.distributed.tensor.distribute_tensor',
      'DTensor.to_local',
    ],
    source:
      'torch/distributed/device_mesh.py (init_device_mesh(device_type, mesh_shape, *, mesh_dim_names); DeviceMesh.__getitem__ by dim name; get_local_rank(mesh_dim=None)); torch/distributed/tensor/__init__.py @ 1d310620b3f10eb206f34787740dfc0c495a9060 (public DTensor, distribute_tensor, Shard); torch/distributed/tensor/_api.py (DTensor.to_local, full_tensor)',
  },
  {
    names: ['torch.profiler.profile'],
    source:
      'torch/profiler/profiler.py (profile; events() gives FunctionEvent with name and time_range in µs)',
  },
  {
    names: [
      'torch.nn.parallel.DistributedDataParallel',
      'DistributedDataParallel.no_sync',
      'torch.utils.data.distributed.DistributedSampler',
    ],
    source:
      'torch/nn/parallel/distributed.py (DistributedDataParallel(module, device_ids, broadcast_buffers, …, bucket_cap_mb, 25 MiB by default); no_sync() context manager skips the gradient all-reduce), torch/utils/data/distributed.py',
  },
  {
    names: [
      'torch.distributed.algorithms.ddp_comm_hooks.default_hooks',
      'torch.distributed.algorithms.ddp_comm_hooks.powerSGD_hook.PowerSGDState',
      'torch.distributed.algorithms.ddp_comm_hooks.powerSGD_hook.powerSGD_hook',
    ],
    source:
      'torch/distributed/algorithms/ddp_comm_hooks/default_hooks.py (fp16_compress_hook, bf16_compress_hook), powerSGD_hook.py (PowerSGDState(process_group, matrix_approximation_rank, start_powerSGD_iter, …, use_error_feedback, warm_start, orthogonalization_epsilon), powerSGD_hook(state, bucket); p_memory_dict / q_memory_dict reused under warm start); read in PyTorch 1.13 and main. 1.13 refuses bf16_compress_hook without CUDA 11+ and NCCL 2.10+ (torch/nn/parallel/distributed.py, _check_comm_hook)',
  },
  {
    names: ['FSDPModule.set_force_sum_reduction_for_comms'],
    source:
      'torch/distributed/fsdp/_fully_shard/_fully_shard.py @ 0257dd1c405a7e3a8779e6c88eef5c8c9cea1620 (set_force_sum_reduction_for_comms(enable) sets its own param groups only, not submodules; added by pytorch/pytorch#155915); _fsdp_collectives.py @ 010ae4a89516fa3be548ab16dff711414ec12d0b (_get_gradient_divide_factors: fp32 grads reduce-scatter with ReduceOp.AVG unless forced to SUM, then post-divided by the world size); Gloo AVG reported wrong in pytorch/pytorch#162338 (open)',
  },
];

/** Methods of FSDP2's, DTensor's and DCP's types a twin may call, by the class that defines them. */
const TRACKED_METHODS: Record<string, string> = {
  set_modules_to_forward_prefetch: 'FSDPModule',
  set_modules_to_backward_prefetch: 'FSDPModule',
  set_force_sum_reduction_for_comms: 'FSDPModule',
  no_sync: 'DistributedDataParallel',
  full_tensor: 'DTensor',
  to_local: 'DTensor',
  get_local_rank: 'DeviceMesh',
  create_local_plan: 'DefaultLoadPlanner',
  read_metadata: 'FileSystemReader',
};

/** Fields of DCP's metadata and plan dataclasses a twin may read, by the class that defines them. */
const TRACKED_FIELDS: Record<string, string> = {
  state_dict_metadata: 'Metadata',
  storage_data: 'Metadata',
  chunks: 'TensorStorageMetadata',
  offsets: 'ChunkStorageMetadata',
  sizes: 'ChunkStorageMetadata',
  relative_path: '_StorageInfo',
  storage_index: 'ReadItem',
  storage_offsets: 'ReadItem',
  lengths: 'ReadItem',
};

/** Every `dist.x`, `dist.ReduceOp.X`, `nn.X(.y)`, `dcp.x`, tracked method and field a twin uses, and every `from torch… import name` it makes. */
export function pytorchNamesIn(source: string): string[] {
  const found = new Set<string>();
  const code = codeOnly(source);
  for (const m of code.matchAll(/(?<![\w.])dist\.ReduceOp\.(\w+)/g))
    found.add(`dist.ReduceOp.${m[1]}`);
  for (const m of code.matchAll(/(?<![\w.])dist\.(\w+)/g))
    if (m[1] !== 'ReduceOp') found.add(`dist.${m[1]}`);
  for (const m of code.matchAll(/(?<![\w.])nn\.(\w+)(?:\.(\w+))?/g))
    found.add(m[2] && /^[a-z]/.test(m[2]) ? `nn.${m[1]}.${m[2]}` : `nn.${m[1]}`);
  // Indented too: a twin imports FSDP2 only inside a version check (1.13's fsdp package fails to import on 3.11).
  for (const m of code.matchAll(/^[ \t]*from (torch[\w.]*) import ([\w, ]+?)(?: as \w+)?$/gm)) {
    for (const name of m[2]!.split(',').map((s) => s.trim())) found.add(`${m[1]}.${name}`);
  }
  for (const m of code.matchAll(/(?<![\w.])dcp\.(\w+)/g))
    found.add(`torch.distributed.checkpoint.${m[1]}`);
  for (const m of code.matchAll(/\.(\w+)\(/g))
    if (Object.hasOwn(TRACKED_METHODS, m[1]!)) found.add(`${TRACKED_METHODS[m[1]!]}.${m[1]}`);
  for (const m of code.matchAll(/\.(\w+)\b(?!\s*\()/g))
    if (Object.hasOwn(TRACKED_FIELDS, m[1]!)) found.add(`${TRACKED_FIELDS[m[1]!]}.${m[1]}`);
  return [...found].sort();
}

/** Python source without docstrings, comments and string text (an f-string keeps its {expressions}). */
function codeOnly(source: string): string {
  return source
    .replace(/"""[\s\S]*?"""/g, '')
    .replace(/#.*$/gm, '')
    .replace(/(?<!\w)(f?)(["'])((?:\\.|(?!\2).)*)\2/g, (_, f: string, _q: string, body: string) =>
      f ? [...body.matchAll(/\{([^{}]*)\}/g)].map((m) => ` ${m[1]} `).join('') : '""',
    );
}
