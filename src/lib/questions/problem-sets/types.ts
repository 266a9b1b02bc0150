/**
 * Worked problem sets, one per chapter, in the style of the JAX Scaling Book's exercises: a setup,
 * then steps a reader checks one by one, each with a worked solution. Every answer is computed here by
 * the same figure functions the chapters use (src/lib/figures), never typed in.
 */
import type { Mistake } from '../quantity-grader';

export interface Step {
  prompt: string;
  /** The answer in `unit`, computed by the book's code. */
  value: number;
  /** A unit the grader knows ("GB", "ms", "x", "%", "" for a plain number). */
  unit: string;
  tolerance: number;
  /** The worked solution, with the computed numbers in it. */
  solution: string;
  mistakes?: Mistake[];
}

export interface Problem {
  title: string;
  setup: string;
  steps: Step[];
}

export interface ProblemSet {
  /** The chapter's content id, e.g. "02-collectives". */
  chapter: string;
  problems: Problem[];
}

/** Rounds for display in a solution: three significant figures, no trailing zeros. */
export const sig = (x: number, digits = 3) => Number(x.toPrecision(digits)).toString();
