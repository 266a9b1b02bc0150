/** The collectives lab: one playground per collective, with the line every rank must print. */
export interface LabPlayground {
  src: string;
  title: string;
  /** What the collective does and where training uses it, in a sentence or two. */
  intro: string;
  expect: string[];
}

export const LAB_PLAYGROUNDS: LabPlayground[] = [
  {
    src: 'lab-broadcast.ts',
    title: 'broadcast',
    intro:
      'One rank, the source, sends its tensor to every other rank. Data-parallel training starts with it: rank 0 initializes the model and broadcasts the weights so every replica begins identical.',
    expect: ['same as rank 0: true'],
  },
  {
    src: 'lab-scatter-gather.ts',
    title: 'scatter and gather',
    intro:
      'Scatter deals the rows of a tensor out from one rank, one row per rank; gather collects one tensor from every rank onto a single destination. Together they are the simplest way to split a batch and collect the results.',
    expect: ['scatter/gather ok: true'],
  },
  {
    src: 'lab-all-gather.ts',
    title: 'all-gather',
    intro:
      'Every rank contributes a shard and every rank receives all the shards. ZeRO-3 and FSDP all-gather sharded parameters right before a layer needs them.',
    expect: ['allGather ok: true'],
  },
  {
    src: 'lab-reduce-scatter.ts',
    title: 'reduce-scatter',
    intro:
      'The ranks sum their tensors, but each keeps only its own slice of the sum. It is the first half of a ring all-reduce, and how ZeRO-2 leaves each rank with just the gradient shard it updates.',
    expect: ['reduceScatter ok: true'],
  },
  {
    src: 'lab-all-reduce.ts',
    title: 'all-reduce',
    intro:
      'Every rank ends with the same reduction of everyone’s input. This is the gradient averaging at the heart of data parallelism; try both algorithms and compare their timelines.',
    expect: ['allReduce ok: true'],
  },
  {
    src: 'lab-all-to-all.ts',
    title: 'all-to-all',
    intro:
      'Every rank cuts its buffer into one block per rank and sends block j to rank j, which keeps it as block r: a transpose across the ranks. Expert parallelism routes tokens to their experts with it, and Ulysses-style context parallelism swaps a sequence shard for a head shard. The runtime has no allToAll, so this playground builds it from send and recv, as NCCL does.',
    expect: ['allToAll ok: true'],
  },
  {
    src: 'lab-async-barrier.ts',
    title: 'asynchronous collectives and barrier',
    intro:
      'Any collective can start now and be waited for later, which is how DDP overlaps communication with the backward pass. A barrier simply waits until every rank has reached it.',
    expect: ['async allReduce ok: true'],
  },
];
