import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';

const INCLUDE = ['tests/unit/**/*.test.ts', 'tests/calibration/**/*.test.ts'];
// Files whose checks depend on wall-clock time (a peer fails within 2.5 s, a run stops within 500 ms, a rank
// computes over 5 steps in 300 ms while its all-reduce waits, 02-groups-and-async's "the late rank waited least"
// verdict): they run last, one at a time, with the 2 cores to themselves. twin-runs.test.ts is not one of them:
// it masks every wall-clock value of a twin (twin-cases.ts `timing`) and leaves 02-groups-and-async's page lines
// to wall-clock-playgrounds.test.ts, so it shares the cores with the other files.
const TIMED = [
  'tests/unit/collectives/failures.test.ts',
  'tests/unit/collectives/tensor-dist.test.ts',
  'tests/unit/cluster/hostile-ranks.test.ts',
  'tests/unit/cluster/cluster.test.ts',
  'tests/unit/cluster/logical-ranks.test.ts',
  'tests/unit/rank/memory-budget.test.ts',
  'tests/unit/playgrounds/wall-clock-playgrounds.test.ts',
];

/**
 * The longest files, longest first (seconds of their tests in CI at 71d8a4e: `vitest run` on the 2-core CI
 * machine). A fresh clone has no Vitest results cache, so without this list files start largest first (by bytes),
 * and a long file that happens to be small starts last and runs alone at the end.
 */
const SLOWEST_FIRST = [
  'tests/unit/twins/twin-runs.test.ts', // 83 s
  'tests/unit/playgrounds/chapter-playgrounds.test.ts', // 38 s
  'tests/unit/questions/code-exercises.test.ts', // 38 s
  'tests/unit/parallel/memory-and-communication.test.ts', // 33 s
  'tests/unit/simulation/virtual-time-runs.test.ts', // 28 s
  'tests/unit/collectives/collectives-vs-reference.test.ts', // 21 s
  'tests/unit/parallel/pytorch-twin.test.ts', // 17 s
  'tests/unit/cluster/cli.test.ts', // 16 s
  'tests/unit/cluster/lab-playgrounds.test.ts', // 13 s
  'tests/unit/parallel/equivalence.test.ts', // 9 s
];

class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const listed = (f: TestSpecification) => {
      const i = SLOWEST_FIRST.indexOf(relative(f.project.config.root, f.moduleId));
      return i < 0 ? SLOWEST_FIRST.length : i;
    };
    // Vitest's order (projects by group, then name; the rest of a project's files largest first) with the listed
    // files moved to the front of their project.
    const order = await super.sort(files);
    const at = new Map(order.map((f, i) => [f, i]));
    const projectAt = new Map<string, number>();
    order.forEach((f, i) => projectAt.set(f.project.name, projectAt.get(f.project.name) ?? i));
    const key = (f: TestSpecification) => [projectAt.get(f.project.name)!, listed(f), at.get(f)!];
    const sorted = [...order].sort((a, b) => {
      const [ka, kb] = [key(a), key(b)];
      return ka[0]! - kb[0]! || ka[1]! - kb[1]! || ka[2]! - kb[2]!;
    });
    return sorted;
  }
}

export default defineConfig({
  test: {
    // Rank workers share 2 cores; long collectives tests must not time out under load.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: ['default'],
    sequence: { sequencer: SlowestFirst },
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
