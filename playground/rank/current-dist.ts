import type { RankDist } from '../collectives/create-dist.ts';

let current: RankDist | undefined;

/** Installs this worker's `dist`; the rank entry calls it once before the reader's program runs. */
export function setCurrentDist(dist: RankDist | undefined): void {
  current = dist;
}

/** This rank's `dist`; training wrappers fall back to it when none is passed explicitly. */
export function currentDist(): RankDist {
  if (!current) throw new Error("dist is only available inside a rank: run the program with the playground's Run button or `npm run ranks -- run file.ts --world N`");
  return current;
}
