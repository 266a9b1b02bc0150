/**
 * Issue 34, items 3, 4 and 8: output and plots bounded by size. Each test compares the page's longest
 * main-thread task with a plain program's on the same page (the bar: no task over 200 ms beyond it),
 * by the task's CPU time (traceMainThread): on 2 cores shared with other jobs its wall time is mostly waiting
 * for a core (a plain run's longest task: 94-190 ms of wall time, 14-16 ms of CPU), which made the bar flaky.
 * Wall times are printed beside.
 */
import { test, expect, type Locator, type Page } from '@playwright/test';
import { firstChapterPath } from './pages';
import { firstPlayground as pg, openEditor, setCode } from './editor';
import { runAndWait } from './helpers/run-and-wait';
import { stopAndTime, traceMainThread, type LongestTask } from './helpers/main-thread';

/**
 * The longest task while a plain program runs to the end on the same page: the baseline. By default one line
 * per rank; a test whose ranks do heavy work passes the same work without the output (on 2 cores, busy ranks
 * stretch the page's tasks whatever it draws).
 */
async function baseline(
  page: Page,
  root: Locator,
  program = "import { dist } from 'ranks';\nconsole.log('plain', dist.rank);\n",
): Promise<LongestTask> {
  await setCode(page, root, program);
  const longest = await traceMainThread(page);
  await runAndWait(root);
  return longest();
}

const ms = (t: LongestTask) => `${t.cpuMs.toFixed(0)} ms CPU (${t.wallMs.toFixed(0)} ms wall)`;

async function openTwoRanks(page: Page): Promise<Locator> {
  await page.goto(firstChapterPath);
  const root = pg(page);
  await openEditor(root);
  await root.locator('[data-world-select]').selectOption('2');
  return root;
}

// ≈ 15-30 s and 0.5 GB in the ranks (400 MiB of text made, 10,000 characters of each line reaching the page):
// in the benchmark (npm run bench:page), not the timed suite. Measured at load average 26 on 2 cores: longest
// task 225 ms against 148 ms for the same work unprinted (it was a 48 s gap before lines were cut).
test('200 lines of 1 MiB per rank and one 256 MiB line: each cut with a note, the page responds, Stop ≤ 0.5 s @bench', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const root = await openTwoRanks(page);
  // The same strings made (and joined and cut, as a log line is), printed as one short line.
  const made = `import { dist } from 'ranks';
const mib = 'x'.repeat(2 ** 20);
let n = 0;
for (let i = 0; i < 200; i++) n += ['line', i, mib].join(' ').slice(0, 10_000).length;
if (dist.rank === 0) n += 'y'.repeat(256 * 2 ** 20).slice(0, 10_000).length;
console.log('made', n);
`;
  const plain = await baseline(page, root, made);
  const flood = `import { dist } from 'ranks';
const mib = 'x'.repeat(2 ** 20);
for (let i = 0; i < 200; i++) console.log('line', i, mib);
if (dist.rank === 0) console.log('y'.repeat(256 * 2 ** 20));
// Rank 0 keeps printing (slowly: its pane keeps the last 200 lines), rank 1 waits, until Stop.
for (let i = 0; ; i++) { if (dist.rank === 0) console.log('after', i); await new Promise((r) => setTimeout(r, 100)); }
`;
  await setCode(page, root, flood);
  const longest = await traceMainThread(page);
  await root.getByRole('button', { name: 'Run' }).click();
  const pane0 = root.locator('[data-rank="0"] pre');
  await expect(pane0).toContainText(
    'y … 268,434,956 more characters (Download log has the first 10,000)',
    {
      timeout: 60_000,
    },
  );
  await expect(root.locator('[data-rank="1"] pre')).toContainText(
    'x … 1,048,083 more characters (Download log has the first 10,000)',
    {
      timeout: 30_000,
    },
  );
  await expect(pane0).toContainText('after');
  await expect(root.locator('[data-status]')).toContainText('Running');
  const stopMs = await stopAndTime(root);
  const flooded = await longest();
  // The baseline side by side: the same work unprinted, once before the flood (the page's first run) and
  // once after; the larger of the two.
  const plainAfter = await baseline(page, root, made);
  console.log(
    `longest main-thread task: flood ${ms(flooded)}, plain ${ms(plain)} before and ${ms(plainAfter)} after; Stop ${stopMs.toFixed(0)} ms`,
  );
  expect(stopMs).toBeLessThan(500);
  expect(flooded.cpuMs).toBeLessThan(Math.max(plain.cpuMs, plainAfter.cpuMs) + 200);
});

// ≈ 15 s.
test('0.1 + 0.2 beside 0.3 draws; 20,000 one-point charts draw the first 64 and say so; the page responds, Stop ≤ 0.5 s', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const root = await openTwoRanks(page);
  const plain = await baseline(page, root);
  await setCode(
    page,
    root,
    `import { dist, plot } from 'ranks';
if (dist.rank === 0) {
  plot.line('nearly equal', 0, 0.1 + 0.2);
  plot.line('nearly equal', 1, 0.3);
  for (let i = 0; i < 20_000; i++) plot.line('chart ' + i, 0, i);
}
console.log('plotted');
for (;;) await new Promise((r) => setTimeout(r, 100)); // until Stop
`,
  );
  const longest = await traceMainThread(page);
  await root.getByRole('button', { name: 'Run' }).click();
  await expect(root.locator('.pg-plots .pg-dropped')).toBeVisible({ timeout: 60_000 });
  await expect(root.locator('[data-rank="0"] pre')).toContainText('plotted');
  const stopMs = await stopAndTime(root);
  expect(stopMs).toBeLessThan(500);
  const close = root.locator('figure[data-chart="nearly equal"]');
  await expect(close.locator('svg[role="img"] polyline')).toHaveCount(1);
  await expect(root.locator('figure.pg-plot')).toHaveCount(64);
  await expect(root.locator('.pg-plots .pg-dropped')).toContainText(
    'more charts were not drawn (a run draws its first 64)',
  );
  const charted = await longest();
  console.log(
    `longest main-thread task: 20,000 charts ${ms(charted)}, plain ${ms(plain)}; Stop ${stopMs.toFixed(0)} ms`,
  );
  expect(charted.cpuMs).toBeLessThan(plain.cpuMs + 200);
});

// ≈ 25 s, in the benchmark: the red team's other two plot cases (20,000 bar labels took 3.5-4.9 s with a
// lookup per label; 20,000 series 1.5 s), each a run of its own (a run keeps its first 20,000 points).
test('20,000 bar labels on one chart, then 20,000 series on one chart: the page responds, Stop ≤ 0.5 s @bench', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const root = await openTwoRanks(page);
  const plain = await baseline(page, root);
  for (const [what, call, drawn] of [
    ['bar labels', "plot.bar('labels', 'label ' + i, i)", 'figure[data-chart="labels"]'],
    [
      'series',
      "plot.line('series', 0, i, { series: 'series ' + i })",
      'figure[data-chart="series"]',
    ],
  ] as const) {
    await setCode(
      page,
      root,
      `import { dist, plot } from 'ranks';
if (dist.rank === 0) for (let i = 0; i < 20_000; i++) ${call};
console.log('plotted');
for (;;) await new Promise((r) => setTimeout(r, 100)); // until Stop
`,
    );
    const longest = await traceMainThread(page);
    await root.getByRole('button', { name: 'Run' }).click();
    await expect(root.locator(drawn)).toBeVisible({ timeout: 60_000 });
    await expect(root.locator('[data-rank="0"] pre')).toContainText('plotted');
    await page.waitForTimeout(1_000); // the last redraw
    const stopMs = await stopAndTime(root);
    const task = await longest();
    if (what === 'bar labels')
      await expect(root.locator(`${drawn} .pg-dropped`)).toContainText(
        '19,872 more bars were not drawn (a chart draws its first 128',
      );
    console.log(
      `longest main-thread task: 20,000 ${what} ${ms(task)}, plain ${ms(plain)}; Stop ${stopMs.toFixed(0)} ms`,
    );
    expect(stopMs).toBeLessThan(500);
    expect(task.cpuMs).toBeLessThan(plain.cpuMs + 200);
  }
  await expect(root.locator('figure[data-chart="series"] .pg-dropped')).toContainText(
    '19,968 more series were not drawn',
  );
});
