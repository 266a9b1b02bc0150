/**
 * What the source chapter (seeds/004) printed, quoted so chapter 5 can show where it went wrong.
 * These are quotations, not results: tests check each against the recomputed figure.
 */

/** Its 70B / 8-GPU "Memory per GPU" table, in bytes. */
export const SOURCE_70B_TABLE = {
  params: 70e9,
  gpus: 8,
  ddp: 840e9,
  zero1: 350e9,
  zero2: 210e9,
  zero3: 105e9,
} as const;

/** Its communication table, per GPU, in units of the model size D: forward / backward / optimizer. */
export const SOURCE_COMM_TABLE = {
  ddp: [0, 2, 0],
  zero1: [0, 2, 1],
  zero2: [0, 1, 1],
  zero3: [2, 2, 1],
} as const satisfies Record<string, readonly [number, number, number]>;

/** Its claim: "ZeRO-3 has 3x more communication than DDP". */
export const SOURCE_ZERO3_COMM_MULTIPLE = 3;

export function sourceCommTotal(strategy: keyof typeof SOURCE_COMM_TABLE): number {
  return SOURCE_COMM_TABLE[strategy].reduce((a: number, b: number) => a + b, 0);
}
