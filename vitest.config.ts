import { defineConfig } from 'vitest/config';

const INCLUDE = ['tests/unit/**/*.test.ts', 'tests/calibration/**/*.test.ts'];
// Files whose checks depend on wall-clock time (a peer fails within 2.5 s, a run stops within 500 ms, a rank
// computes over 5 steps in 300 ms while its all-reduce waits, a twin's "the late rank waited least" verdict):
// they run last, one at a time, with the 2 cores to themselves.
const TIMED = [
  'tests/unit/collectives/failures.test.ts',
  'tests/unit/collectives/tensor-dist.test.ts',
  'tests/unit/cluster/hostile-ranks.test.ts',
  'tests/unit/cluster/cluster.test.ts',
  'tests/unit/cluster/logical-ranks.test.ts',
  'tests/unit/rank/memory-budget.test.ts',
  'tests/unit/twins/twin-runs.test.ts',
  'tests/unit/playgrounds/wall-clock-playgrounds.test.ts',
];

export default defineConfig({
  test: {
    // Rank workers share 2 cores; long collectives tests must not time out under load.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: ['default'],
    projects: [
      {
        extends: true,
        // Two files at a time: a file alone leaves a core idle while it starts processes, workers and imports.
        test: { name: 'unit', include: INCLUDE, exclude: TIMED, maxWorkers: 2 },
      },
      {
        extends: true,
        test: { name: 'timed', include: TIMED, maxWorkers: 1, sequence: { groupOrder: 1 } },
      },
    ],
  },
});
