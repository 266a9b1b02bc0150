import { describe, expect, it } from 'vitest';
import { placeMesh, worldOf } from '../../../src/lib/figures/device-mesh';

describe('device mesh placement (row-major init_device_mesh, torchtitan dim order)', () => {
  it('a 4-D mesh of 512 GPUs in nodes of 8: tp inside the node, cp across 2 nodes, dp_shard across 16, pp across 4', () => {
    const mesh = [
      { name: 'pp', size: 4 },
      { name: 'dp_shard', size: 8 },
      { name: 'cp', size: 2 },
      { name: 'tp', size: 8 },
    ];
    expect(worldOf(mesh)).toBe(512);
    const p = placeMesh(mesh, 8);
    expect(p.map((d) => d.stride)).toEqual([128, 16, 8, 1]);
    expect(p.map((d) => d.insideNode)).toEqual([false, false, false, true]);
    expect(p.map((d) => d.nodesPerGroup)).toEqual([4, 8, 2, 1]);
  });
  it('HSDP on 16 nodes of 8: the shard dimension is the node, the replicate dimension crosses 16 nodes', () => {
    const p = placeMesh(
      [
        { name: 'dp_replicate', size: 16 },
        { name: 'dp_shard', size: 8 },
      ],
      8,
    );
    expect(p.map((d) => [d.insideNode, d.nodesPerGroup])).toEqual([
      [false, 16],
      [true, 1],
    ]);
  });
});
