/** Every chapter's problem set, by chapter id. */
import { problemSet as ch01 } from './01-what-is-data-parallelism';
import { problemSet as ch02 } from './02-collectives';
import { problemSet as ch03 } from './03-data-parallel-from-scratch';
import { problemSet as ch04 } from './04-inside-ddp';
import { problemSet as ch05 } from './05-memory-and-zero';
import { problemSet as ch06 } from './06-fsdp-and-choosing';
import { problemSet as ch07 } from './07-activations-and-precision';
import { problemSet as ch08 } from './08-batch-size-and-learning-rate';
import { problemSet as ch09 } from './09-operating-at-scale';
import { problemSet as ch10 } from './10-communicating-less';
import type { ProblemSet } from './types';

export type { Problem, ProblemSet, Step } from './types';

export const PROBLEM_SETS: readonly ProblemSet[] = [
  ch01,
  ch02,
  ch03,
  ch04,
  ch05,
  ch06,
  ch07,
  ch08,
  ch09,
  ch10,
];

export const problemSetFor = (chapter: string) => PROBLEM_SETS.find((p) => p.chapter === chapter);
