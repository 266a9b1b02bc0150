import { describe, expect, it } from 'vitest';
import {
  ddpAlgorithmRuns,
  chargedBytes,
  fsdpBytesOverDdp,
  gpt2Params,
  paddedRootElements,
  SCALE_STEP,
  scaleStepRow,
  scaleStepRows,
  toyParams,
  toyRootElements,
  toyUnitElements,
} from '../../../src/lib/figures/scale-step';
import { bucketCapBytes } from '../../../src/lib/figures/ddp-buckets';
import { rawEmbeds, readProgram } from '../../playground-manifest.ts';

const program = readProgram('09-scale-ddp-fsdp.ts');
const constant = (name: string) => {
  const m = new RegExp(`\\b${name} = ([\\d_ *]+)`).exec(program);
  if (!m) throw new Error(`09-scale-ddp-fsdp.ts defines no ${name}`);
  return m[1]!.split('*').reduce((a, f) => a * Number(f.trim().replace(/_/g, '')), 1);
};

describe('the scale playground is charged as GPT-2 small', () => {
  it('GPT-2 small has 124,439,808 parameters: 12 blocks of 7,087,872 and 39,385,344 in the embeddings and final norm', () => {
    // The count PyTorch reports for nanoGPT's GPT.from_pretrained('gpt2') with the head tied (HF "gpt2": 124M).
    expect(gpt2Params()).toEqual({ total: 124_439_808, block: 7_087_872, root: 39_385_344 });
  });

  it('the program charges what the figures assume', () => {
    expect(constant('GPT2_SMALL')).toBe(gpt2Params().total);
    expect(constant('tokensPerGpu')).toBe(SCALE_STEP.tokensPerGpu);
    expect(constant('units')).toBe(SCALE_STEP.units);
    expect(constant('d')).toBe(SCALE_STEP.d);
    expect(constant('vocab')).toBe(SCALE_STEP.vocab);
    expect(program).toContain(
      `const sizes = [${SCALE_STEP.sizes.slice(0, -1).join(', ')}].filter((k) => k < world).concat(world);`,
    );
    const embed = rawEmbeds('09-operating-at-scale.mdx').find(
      (e) => e.src === '09-scale-ddp-fsdp.ts',
    )!;
    expect(embed.cluster).toEqual({ preset: SCALE_STEP.preset, nodes: 2, gpusPerNode: 8 });
  });

  it('the toy stands in GPT-2’s proportions: a unit of 3 blocks and the root within 2 % of theirs', () => {
    const { total, block, root } = gpt2Params();
    const unitShare = toyUnitElements / toyParams,
      rootShare = toyRootElements / toyParams;
    expect(unitShare / ((SCALE_STEP.blocksPerUnit * block) / total)).toBeCloseTo(1, 1);
    expect(Math.abs(rootShare / (root / total) - 1)).toBeLessThan(0.02);
    expect(chargedBytes(toyParams)).toBeCloseTo(2 * total, 3);
    // A unit shards evenly over every size up to 1,024; the root pads (as FSDP2's Shard(0) pads dim 0).
    for (const k of SCALE_STEP.sizes) expect(toyUnitElements % k).toBe(0);
    expect(paddedRootElements(1024)).toBe(2048);
  });
});

describe('what FSDP moves against DDP', () => {
  it('about a third more, not half: the root is gathered once, as FSDP2 keeps it unsharded into backward', () => {
    // The program gathers every unit in forward and all but the root (unit 0) again in backward.
    expect(program).toContain('gather(order.slice(1).reverse())');
    expect(fsdpBytesOverDdp()).toBeCloseTo(1.342, 3);
    // The toy moves the same share: its root is within 2 % of GPT-2's.
    expect(fsdpBytesOverDdp({ total: toyParams, root: toyRootElements })).toBeCloseTo(
      fsdpBytesOverDdp(),
      2,
    );
  });
});

describe('DDP’s buckets', () => {
  it('one a unit here; PyTorch’s default 25 MiB cap would cut about twice as many from the same bytes', () => {
    const perCap = chargedBytes(toyParams) / bucketCapBytes();
    expect(perCap / (SCALE_STEP.units + 1)).toBeGreaterThan(1.5);
    expect(perCap / (SCALE_STEP.units + 1)).toBeLessThan(2.5);
  });
});

describe('which algorithm the cluster model times each collective with', () => {
  it('DDP’s buckets: NVLS in one node, then the fastest of ring and tree by the model’s own time; a tree (LL128) at 128 nodes', () => {
    const rows = scaleStepRows();
    expect(rows.map((r) => r.gpus)).toEqual([...SCALE_STEP.sizes]);
    // Pinned (simulated cluster, NCCL 2.26–2.30 model): the model picks the fastest candidate by its own time;
    // its cross-node NVLS-tree pipeline term (nccl-constants.ts) makes NVLS + tree slower than a ring or a tree
    // at this bucket size. NCCL's tuner has no such term (tuning.cc), so a real run may name another algorithm.
    expect(ddpAlgorithmRuns(rows)).toEqual([
      { algorithm: 'nvls', protocol: 'Simple', fromNodes: 1, toNodes: 1 },
      { algorithm: 'ring', protocol: 'LL128', fromNodes: 2, toNodes: 4 },
      { algorithm: 'tree', protocol: 'LL128', fromNodes: 8, toNodes: 128 },
    ]);
    expect(scaleStepRow(1024).ddpUnit.protocol).toBe('LL128');
    expect(scaleStepRow(1024).nodes).toBe(128);
  });

  it('FSDP’s all-gathers and reduce-scatters are rings: Simple inside a node, LL128 across nodes', () => {
    for (const r of scaleStepRows())
      for (const p of [r.allGather, r.reduceScatter]) {
        expect(p.algorithm).toBe('ring');
        expect(p.protocol).toBe(r.nodes === 1 ? 'Simple' : 'LL128');
      }
  });
});
