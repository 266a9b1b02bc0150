/**
 * FSDP / ZeRO-3's communication time against DDP's, per cluster preset, from the cluster model
 * (playground/simulation): the ratio in time beside the 1.5× ratio in bytes. DDP all-reduces its
 * bf16 gradients in `bucket_cap_mb` buckets; FULL_SHARD all-gathers each layer's parameters before
 * forward and again before backward, and reduce-scatters its gradients (one unit per layer, as
 * `fully_shard` applied per transformer block does). Times are the simulated cluster's, not a
 * measurement; NVLink SHARP speeds up all-reduce only, so inside an NVLS node the time ratio exceeds
 * the byte ratio.
 */
import { bucketCapBytes } from './ddp-buckets';
import { commRatioToDdp } from './comm-volume';
import {
  clusterShape,
  describeShape,
  predictCollective,
  type Collective,
} from '../../../playground/simulation/index.ts';

export interface CommTimeCase {
  preset: string;
  nodes: number;
  gpusPerNode: number;
}

/** The example model: Llama-like 7B in 32 transformer blocks, bf16 parameters and gradients. */
export const COMM_TIME_MODEL = { params: 7e9, layers: 32, bytesPerParam: 2 } as const;

export const COMM_TIME_CASES: readonly CommTimeCase[] = [
  { preset: 'h100-ndr', nodes: 1, gpusPerNode: 8 },
  { preset: 'h100-ndr-no-nvls', nodes: 1, gpusPerNode: 8 },
  { preset: 'a100-hdr', nodes: 1, gpusPerNode: 8 },
  { preset: 'h100-ndr', nodes: 8, gpusPerNode: 8 },
  { preset: 'aws-p5-efa', nodes: 8, gpusPerNode: 8 },
  { preset: 'a100-roce', nodes: 8, gpusPerNode: 8 },
  { preset: 'h100-2nic', nodes: 8, gpusPerNode: 8 },
  { preset: 'a100-100gbe', nodes: 2, gpusPerNode: 8 },
];

export interface CommTimeRow {
  label: string;
  preset: string;
  gpus: number;
  ddpSeconds: number;
  fsdpSeconds: number;
  /** FSDP / DDP as they run: DDP's bucket all-reduces against per-block all-gathers and reduce-scatters. */
  timeRatio: number;
  /** FSDP / DDP with every collective over the whole gradient at once (the sizes the byte ratio assumes). */
  timeRatioWhole: number;
  byteRatio: number;
  /** Algorithms the model chose: DDP's bucket all-reduce, FSDP's unit all-gather and reduce-scatter. */
  ddpAlgorithm: string;
  fsdpAlgorithms: string;
}

/** Seconds for `count` collectives of `bytes` each plus one of `rest` bytes (nccl-tests sizes). */
function repeated(
  c: ReturnType<typeof clusterShape>,
  collective: Collective,
  bytes: number,
  count: number,
  rest: number,
) {
  const one = predictCollective(c, collective, bytes);
  const tail = rest > 0 ? predictCollective(c, collective, rest).seconds : 0;
  return { seconds: count * one.seconds + tail, algorithm: `${one.algorithm}/${one.protocol}` };
}

export function commTimeRow(
  k: CommTimeCase,
  model: { params: number; layers: number; bytesPerParam: number } = COMM_TIME_MODEL,
): CommTimeRow {
  const c = clusterShape(k.preset, k.nodes, k.gpusPerNode);
  const grads = model.params * model.bytesPerParam;
  const bucket = bucketCapBytes();
  const ddp = repeated(c, 'all-reduce', bucket, Math.floor(grads / bucket), grads % bucket);
  const unit = grads / model.layers;
  const gather = repeated(c, 'all-gather', unit, model.layers, 0);
  const scatter = repeated(c, 'reduce-scatter', unit, model.layers, 0);
  const fsdpSeconds = 2 * gather.seconds + scatter.seconds;
  const whole = (op: Collective) => predictCollective(c, op, grads).seconds;
  const timeRatioWhole = (2 * whole('all-gather') + whole('reduce-scatter')) / whole('all-reduce');
  return {
    label: describeShape(c),
    preset: k.preset,
    gpus: k.nodes * k.gpusPerNode,
    ddpSeconds: ddp.seconds,
    fsdpSeconds,
    timeRatio: fsdpSeconds / ddp.seconds,
    timeRatioWhole,
    byteRatio: commRatioToDdp('zero3'),
    ddpAlgorithm: ddp.algorithm,
    fsdpAlgorithms: `${gather.algorithm}, ${scatter.algorithm}`,
  };
}

export const commTimeRows = (cases: readonly CommTimeCase[] = COMM_TIME_CASES): CommTimeRow[] =>
  cases.map((k) => commTimeRow(k));
