// What every rank should get back from one raw call, computed from all ranks' inputs with the references.
import type {
  AllReduceAlgorithm,
  CollectiveKind,
  ReduceOp,
} from '../../../../playground/contract/protocol.ts';
import { concatRef, reduceRef, splitRef, type Arr } from './reference.ts';

export interface CallSpec {
  kind: CollectiveKind;
  op?: ReduceOp;
  algorithm?: AllReduceAlgorithm;
  root?: number; // global rank
  group?: number[];
}

/** The raw call rank `rank` makes, and what it should return. `inputs[r]` is rank r's input. */
export function callAndExpected(
  spec: CallSpec,
  inputs: Arr[],
  rank: number,
  worldSize: number,
): { call: unknown; expected: Arr | null | undefined } {
  const members = spec.group ?? Array.from({ length: worldSize }, (_, i) => i);
  const groupInputs = members.map((m) => inputs[m]!);
  const idx = members.indexOf(rank);
  const n = members.length;
  const input = inputs[rank]!;
  const group = spec.group;
  const dtype = input instanceof Int32Array ? 'int32' : 'float32';
  switch (spec.kind) {
    case 'allReduce':
      return {
        call: { kind: 'allReduce', input, op: spec.op, algorithm: spec.algorithm, group },
        expected: reduceRef(groupInputs, spec.op ?? 'sum'),
      };
    case 'reduceScatter': {
      const [a, b] = splitRef(input.length, n, idx);
      return {
        call: { kind: 'reduceScatter', input, op: spec.op, group },
        expected: reduceRef(groupInputs, spec.op ?? 'sum').slice(a, b),
      };
    }
    case 'allGather':
      return { call: { kind: 'allGather', input, group }, expected: concatRef(groupInputs) };
    case 'broadcast':
      return {
        call: { kind: 'broadcast', input, src: spec.root, group },
        expected: inputs[spec.root!]!.slice(),
      };
    case 'reduce':
      return {
        call: { kind: 'reduce', input, dst: spec.root, op: spec.op, group },
        expected: rank === spec.root ? reduceRef(groupInputs, spec.op ?? 'sum') : input.slice(),
      };
    case 'scatter': {
      // The src's input holds n slices; each member's slice is its own `inputs[m]`.
      const slice = input.length;
      return {
        call: {
          kind: 'scatter',
          input: rank === spec.root ? concatRef(groupInputs) : null,
          sliceLength: slice,
          dtype,
          src: spec.root,
          group,
        },
        expected: inputs[rank]!.slice(),
      };
    }
    case 'gather':
      return {
        call: { kind: 'gather', input, dst: spec.root, group },
        expected: rank === spec.root ? concatRef(groupInputs) : null,
      };
    case 'barrier':
      return { call: { kind: 'barrier', group }, expected: undefined };
  }
}
