/**
 * Code exercises run the reader's program on every rank followed by hidden checks (appended in the
 * same scope). Checks print one line per check:
 *   `CHECK PASS <what>`            on success,
 *   `CHECK FAIL rank <k>: <why>`   on failure.
 * A run passes when it finished, every rank printed at least one PASS, and nobody printed FAIL.
 */
export interface RunSummary {
  result: { ok: boolean; reason: string; error?: { message: string; line?: number } };
  /** Lines each rank printed, by rank. */
  logs: string[][];
}

export type CodeVerdict = {
  status: 'correct' | 'wrong' | 'error';
  message: string;
  failures: string[];
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
  if (failures.length)
    return {
      status: 'wrong',
      message: `${failures.length} check${failures.length === 1 ? '' : 's'} failed.`,
      failures,
    };
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
