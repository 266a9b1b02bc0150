/**
 * Code exercises run the reader's program on every rank followed by hidden checks (appended in the
 * same scope). Checks print one line per check:
 *   `CHECK PASS <what>`            on success,
 *   `CHECK FAIL rank <k>: <why>`   on failure.
 *   `CHECK MISTAKE <tag>`          when a failed result matches a usual mistake (see MISTAKES).
 * A run passes when it finished, every rank printed at least one PASS, and nobody printed FAIL.
 */

/** The usual mistakes the checks recognise, said to the reader. */
export const MISTAKES: Record<string, string> = {
  'missing-world-size':
    'the result is the sum over ranks: an all-reduce with op "sum" adds the world size\'s worth of gradients, so divide by the world size (or use op "avg").',
  'equal-weight-average':
    "every rank's mean gradient got the same weight (sum, then divide by the world size), but the shards differ in size: weight each rank by its share of the rows.",
  'not-combined': "the result is this rank's own value: nothing was combined across ranks.",
  'root-per-shard':
    "the square root was taken on each shard and the norms added; add the shards' squared norms across ranks first, then take one root.",
  'averaged-squares':
    'the squared norms were averaged (op "avg"); the whole gradient\'s squared norm is their sum.',
  'missing-root': 'the total is a squared norm: take its square root.',
};
export interface RunSummary {
  result: { ok: boolean; reason: string; error?: { message: string; line?: number } };
  /** Lines each rank printed, by rank. */
  logs: string[][];
}

export type CodeVerdict = {
  status: 'correct' | 'wrong' | 'error';
  message: string;
  failures: string[];
  /** Tags of the usual mistakes the checks recognised, if any. */
  mistakes?: string[];
};

export function gradeCodeRun({ result, logs }: RunSummary): CodeVerdict {
  const failures = logs.flatMap((lines) =>
    lines.filter((l) => l.startsWith('CHECK FAIL')).map((l) => l.slice('CHECK FAIL '.length)),
  );
  if (result.reason === 'compile-error')
    return {
      status: 'error',
      message: `The code does not compile: ${result.error?.message ?? 'syntax error'}${result.error?.line ? ` (line ${result.error.line})` : ''}.`,
      failures,
    };
  if (result.reason === 'timeout')
    return {
      status: 'error',
      message:
        'The run hit its time limit: look for an endless loop or a rank waiting for a message nobody sends.',
      failures,
    };
  if (result.reason === 'stopped')
    return {
      status: 'error',
      message: 'The run was stopped before the checks finished.',
      failures,
    };
  if (failures.length) {
    const mistakes = [
      ...new Set(
        logs.flatMap((lines) =>
          lines.flatMap((l) => {
            const tag = /^CHECK MISTAKE ([\w-]+)$/.exec(l)?.[1];
            return tag && MISTAKES[tag] ? [tag] : [];
          }),
        ),
      ),
    ];
    const why = mistakes.length
      ? ` Most likely ${mistakes.map((m) => MISTAKES[m]).join(' Also, ')}`
      : '';
    return {
      status: 'wrong',
      message: `${failures.length} check${failures.length === 1 ? '' : 's'} failed.${why}`,
      failures,
      mistakes,
    };
  }
  if (!result.ok)
    return {
      status: 'error',
      message: 'A rank threw an error before the checks finished: see the rank panes.',
      failures,
    };
  const silent = logs.flatMap((lines, r) =>
    lines.some((l) => l.startsWith('CHECK PASS')) ? [] : [r],
  );
  if (silent.length)
    return {
      status: 'error',
      message: `The checks did not run on rank${silent.length === 1 ? '' : 's'} ${silent.join(', ')}.`,
      failures,
    };
  return { status: 'correct', message: 'All checks passed on every rank.', failures };
}
