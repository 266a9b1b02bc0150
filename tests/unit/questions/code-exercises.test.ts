import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runProgram } from '../../../playground/cluster/node.ts';
import { gradeCodeRun, MISTAKES } from '../../../src/lib/questions/code-checks';

const dir = join(process.cwd(), 'content', 'questions', 'exercises');
const names = readdirSync(dir)
  .filter((f) => f.endsWith('.starter.ts'))
  .map((f) => f.replace('.starter.ts', ''));

async function grade(
  name: string,
  which: 'starter' | 'solution',
  worldSize: number,
  edit: (code: string) => string = (c) => c,
) {
  const code = edit(readFileSync(join(dir, `${name}.${which}.ts`), 'utf8'));
  const checks = readFileSync(join(dir, `${name}.checks.ts`), 'utf8');
  const { result, events } = await runProgram({
    code,
    checks,
    worldSize,
    backend: 'cpu',
    timeoutMs: 60_000,
  });
  const logs = Array.from({ length: worldSize }, (_, r) =>
    events.filter((e) => e.type === 'log' && e.rank === r).map((e) => (e as { text: string }).text),
  );
  return gradeCodeRun({ result, logs });
}

describe('code exercises: the solution passes its checks, the starter fails them', () => {
  it('has exercises, each with starter, solution and checks', () => {
    expect(names.length).toBeGreaterThanOrEqual(2);
    for (const n of names)
      for (const part of ['solution', 'checks'])
        expect(readdirSync(dir)).toContain(`${n}.${part}.ts`);
  });
  for (const name of names) {
    for (const world of [2, 4]) {
      it(`${name} on ${world} ranks`, async () => {
        const solved = await grade(name, 'solution', world);
        expect(solved, JSON.stringify(solved)).toMatchObject({ status: 'correct' });
        const starter = await grade(name, 'starter', world);
        expect(starter.status).toBe('wrong');
        expect(starter.failures.length).toBeGreaterThan(0);
        expect(starter.failures[0]).toMatch(/^rank \d+: /);
      });
    }
  }
});

describe('gradeCodeRun', () => {
  const ok = { ok: true, reason: 'finished' };
  it('names failures, silent ranks, timeouts and compile errors', () => {
    expect(gradeCodeRun({ result: ok, logs: [['CHECK PASS a'], ['CHECK PASS a']] }).status).toBe(
      'correct',
    );
    expect(gradeCodeRun({ result: ok, logs: [['CHECK PASS a'], []] }).message).toContain('rank 1');
    expect(
      gradeCodeRun({ result: { ok: false, reason: 'timeout' }, logs: [[]] }).message,
    ).toContain('time limit');
    expect(
      gradeCodeRun({
        result: { ok: false, reason: 'compile-error', error: { message: 'Syntax error', line: 3 } },
        logs: [],
      }).message,
    ).toContain('line 3');
    expect(gradeCodeRun({ result: ok, logs: [['CHECK FAIL rank 0: off by one']] })).toMatchObject({
      status: 'wrong',
      failures: ['rank 0: off by one'],
    });
  });
});

/** A solution with one usual mistake put in, and the mistake the grader must name. */
const MISTAKEN: [name: string, mistake: string, edit: (code: string) => string][] = [
  [
    'average-gradients',
    'missing-world-size',
    (c) => c.replace("g.mul(x.shape[0] / rows), { op: 'sum' }", "g, { op: 'sum' }"),
  ],
  [
    'average-gradients',
    'equal-weight-average',
    (c) => c.replace("g.mul(x.shape[0] / rows), { op: 'sum' }", "g, { op: 'avg' }"),
  ],
  ['manual-ddp', 'missing-world-size', (c) => c.replace("{ op: 'avg' }", "{ op: 'sum' }")],
  [
    'clip-sharded-gradients',
    'root-per-shard',
    (c) =>
      c
        .replace('shard.square().sum()', 'shard.square().sum().sqrt()')
        .replace('Math.sqrt((await sumSq.data())[0]!)', '(await sumSq.data())[0]!'),
  ],
  [
    'clip-sharded-gradients',
    'averaged-squares',
    (c) => c.replace("{ op: 'sum' }", "{ op: 'avg' }"),
  ],
];

describe('code exercises name the usual mistakes', () => {
  for (const [name, mistake, edit] of MISTAKEN)
    it(`${name}: ${mistake}`, async () => {
      const edited = edit(readFileSync(join(dir, `${name}.solution.ts`), 'utf8'));
      expect(edited).not.toBe(readFileSync(join(dir, `${name}.solution.ts`), 'utf8'));
      const v = await grade(name, 'solution', 2, edit);
      expect(v).toMatchObject({ status: 'wrong', mistakes: [mistake] });
      expect(v.message).toContain(MISTAKES[mistake]);
    });
  it("the average-gradients starter is named as not combining the ranks' gradients", async () => {
    expect((await grade('average-gradients', 'starter', 2)).mistakes).toEqual(['not-combined']);
  });
});
