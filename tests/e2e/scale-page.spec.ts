/**
 * Issue 30, point 3 and its Chromium "done when": the page at 1,024 ranks. Chapter 9's scale playground
 * (content/chapters/playgrounds/09-scale-ddp-fsdp.ts, every rank prints the same table) on h100-ndr,
 * 128 nodes × 8 GPUs (or as many nodes as the runtime's world limit allows): output folded, any rank
 * pickable, the timeline's rows and arrival band, the step report, and the main thread never blocked.
 */
import { readFileSync } from 'node:fs';
import { test, expect, type Locator, type Page } from '@playwright/test';
import { expectAxeCleanInBothThemesHere } from './helpers/axe-both-themes';
import { stopAndTime, watchLongTasks } from './helpers/main-thread';

const CHAPTER_9 = '/chapters/operating-at-scale/';
const TITLE = 'The same DDP and FSDP step on 8 to 1,024 GPUs';
const LAST_LINE = "FSDP's weights equal DDP's after one step, in every group: true";

/** Picks h100-ndr × 8 GPUs on `nodes` nodes (default the most the page offers, 128 at a 1,024-rank limit); returns the world. */
async function pickWorld(root: Locator, nodes?: number): Promise<number> {
  const max = Number(await root.getAttribute('data-max-world'));
  nodes ??= Math.min(128, max / 8);
  await root.getByLabel('Cluster').selectOption('h100-ndr');
  await root.getByLabel('GPUs per node').selectOption('8');
  await root.getByLabel('Nodes').selectOption(String(nodes));
  const world = nodes * 8;
  await expect(root.locator('[data-cluster-world]')).toHaveText(
    `= ${world.toLocaleString('en')} ranks`,
  );
  await expect(root.locator('[data-cluster-note]')).toContainText('logical ranks');
  return world;
}

/** The playground by its id: a role query re-run by every assertion walks the page's accessibility tree in the page's own thread (long tasks of the test's making). */
async function openScalePlayground(page: Page): Promise<Locator> {
  await page.goto(CHAPTER_9);
  const root = page.locator('[data-id="09-scale-ddp-fsdp"]');
  await expect(root.locator('h3')).toContainText(TITLE);
  return root;
}

// Measures against the bounds (npm run bench:page): Run → Finished ≤ 30 s, no main-thread task over
// 200 ms while 1,024 ranks print and the views draw, Stop ≤ 0.5 s. On 2 shared cores these are the bar to
// report, not a gate for every change. On a quiet machine (load 1-2, 23:08 UTC, integration 5215dd8): 9.4 s
// and 10.1 s, longest task 161 / 128 ms, Stop 41 / 31 ms (cb6ecf0 on the same quiet machine: 56.3 s). Measured 27 Nov 2026 on 2 cores shared with other agents, alternating
// builds (RANKS_DIST): before deaf128 (cb6ecf0) every run hit the page's 60 s run limit (21:38–22:30 UTC,
// load 4–19); with the world handed to each worker once (deaf128) and the program imported once a thread
// (e6e04d4): 25.2 s at load 6 (this test passed whole: longest task 92 ms, Stop 81 ms), 28.0 s and 37.2 s at
// load 10, 34.6–47.9 s at load 15–19, once the 60 s limit as the load rose to 20. The browser's CPU for the
// whole run is 20.7 s (before: 40.2 s in 60 s without finishing), so on a quiet machine the run should be
// CPU-bound near 10–15 s (not measured); under load the wall time is the cores' share. Longest main-thread
// task by CPU 36 ms; by wall time 70–339 ms, the longest a frame's layout at the end (27 ms of CPU) waiting
// for a core.
test('1,024 ranks on a preset: finished ≤ 30 s, folded output, any rank, percentile timeline, no long task, Stop ≤ 0.5 s @bench', async ({
  page,
}) => {
  test.setTimeout(300_000);
  const root = await openScalePlayground(page);
  const world = await pickWorld(root);
  const longest = await watchLongTasks(page);
  const started = Date.now();
  await root.getByRole('button', { name: 'Run' }).click();
  await expect(root.locator('[data-status]')).toHaveText(/^(Finished|Failed|Timed out|Stopped)/, {
    timeout: 240_000,
  });
  const seconds = (Date.now() - started) / 1000;
  const status = (await root.locator('[data-status]').textContent())!;
  const longTask = await longest();
  console.log(
    `${world} ranks in Chromium: ${seconds.toFixed(1)} s wall from Run to ended (${status}); longest main-thread task ${longTask.toFixed(0)} ms`,
  );
  expect(status).toMatch(/^Finished/);
  // Output: rank 0 in full, the others folded, any rank a select away.
  const folded = root.locator('.pg-folded pre');
  await expect(folded).toContainText(`[rank 0] ${LAST_LINE}`);
  await expect(folded).toContainText(`[ranks 1–${world - 1}] ${LAST_LINE}`);
  await expect(folded).toContainText(`${world} GPUs on`);
  await root.getByLabel('Show rank').selectOption(String(world - 1));
  await expect(folded).toContainText(`[rank ${world - 1}] ${LAST_LINE}`);
  await expect(folded).toContainText(`[ranks 0–${world - 2}] ${LAST_LINE}`);
  // The step report and a timeline of a handful of rows over the arrival band.
  await expect(root.locator('.pg-step-report')).toContainText(/virtual time on h100-ndr/i);
  await root.locator('.pg-timeline summary').click();
  await expect(root.locator('.pg-tl-arrival-band')).toHaveCount(1);
  expect(await root.locator('[data-lane-line="comm"]').count()).toBeLessThanOrEqual(6);
  expect(seconds).toBeLessThanOrEqual(30);
  expect(longTask).toBeLessThanOrEqual(200);
  // Stop mid-run ends every rank at once.
  await root.getByRole('button', { name: 'Run' }).click();
  await expect(root.locator('[data-status]')).toContainText('Running on', { timeout: 60_000 });
  const stopMs = await stopAndTime(root);
  console.log(`Stop at ${world} ranks: ${stopMs.toFixed(0)} ms`);
  expect(stopMs).toBeLessThanOrEqual(500);
});

// The timed suite's one run-through of a large world, at 64 ranks (≈ 4 s of run, ≈ 10 s in all on 2 cores):
// folded output, any rank, the report, the timeline's arrival band and a trace that keeps a handful of ranks.
test('a 64-rank run folds its output, draws the arrival band and downloads a readable trace', async ({
  page,
}) => {
  const root = await openScalePlayground(page);
  const world = await pickWorld(root, 8);
  await root.getByRole('button', { name: 'Run' }).click();
  await expect(root.locator('[data-status]')).toContainText('Finished', { timeout: 60_000 });
  const folded = root.locator('.pg-folded pre');
  await expect(folded).toContainText(`[ranks 1–${world - 1}] ${LAST_LINE}`);
  await expect(root.locator('[data-rank]')).toHaveCount(0); // no pane per rank
  await root.getByLabel('Show rank').selectOption('37');
  await expect(folded).toContainText(`[ranks 0–36, 38–${world - 1}] ${LAST_LINE}`);
  await expect(root.locator('[data-backends]')).toContainText(`on ${world} ranks`);
  await expect(root.locator('.pg-step-report')).toContainText(/virtual time on h100-ndr/i);
  await root.locator('.pg-timeline summary').click();
  await expect(root.locator('.pg-tl-arrival-band')).toHaveCount(1);
  await expect(root.locator('.pg-timeline-note')).toContainText('arrival skew');
  // The folded view and its rank picker, in both themes (the timeline's SVG is one role=img).
  await expectAxeCleanInBothThemesHere(page, {
    include: '[data-id="09-scale-ddp-fsdp"] .pg-folded',
  });
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    root.getByRole('button', { name: /Download trace/ }).click(),
  ]);
  const trace = JSON.parse(readFileSync(await download.path(), 'utf8')) as {
    traceEvents: { name: string; ph: string; args?: { name?: string } }[];
    otherData: Record<string, string>;
  };
  const threads = trace.traceEvents.filter((e) => e.name === 'thread_name');
  expect(threads.length).toBeLessThanOrEqual(2 * (1 + 2 * 8)); // rank 0 + a fastest and a slowest per step
  const names = threads.map((t) => t.args!.name!);
  expect(names.some((n) => n.startsWith('rank 0 compute'))).toBe(true);
  expect(names.some((n) => / comm \(.*slowest\)$/.test(n))).toBe(true);
  expect(trace.otherData.ranks).toMatch(
    new RegExp(`^\\d+ of ${world} ranks, so the file stays readable`),
  );
});
