import { readFileSync } from 'node:fs';
import { test, expect, type Locator } from '@playwright/test';
import { firstChapterPath } from './pages';
import { firstPlayground as pg } from './editor';

// A playground on a simulated cluster: the selector, a run with virtual lanes and a step report, and the
// CLI printing the same virtual times for the same program. Costs about one 4-rank run in Chromium plus
// the same run in Node (≈ 30–60 s on 2 busy cores).
const INSIDE_DDP = '/chapters/inside-ddp/';
const OVERLAP = 'content/chapters/playgrounds/04-ddp-overlap.ts';

const byTitle = (root: Locator, title: string) =>
  root
    .locator('[data-playground]')
    .filter({ has: root.page().getByRole('heading', { name: title }) });

test('the cluster selector: real time by default, a preset × nodes × GPUs per node sets the world, by keyboard @pages', async ({
  page,
}) => {
  await page.goto(firstChapterPath);
  const root = pg(page);
  const cluster = root.getByLabel('Cluster');
  await expect(cluster).toHaveValue('laptop');
  await expect(cluster.locator('option:checked')).toHaveText('This laptop (real time)');
  await expect(root.locator('[data-cluster-note]')).toContainText('real');
  await expect(root.getByLabel('Nodes')).toBeHidden();
  // Keyboard only: focus the select and step to the first preset.
  await cluster.focus();
  await page.keyboard.press('ArrowDown');
  await expect(cluster).not.toHaveValue('laptop');
  await expect(root.getByLabel('Nodes')).toBeVisible();
  await expect(root.locator('[data-world-select]')).toBeHidden();
  await cluster.selectOption('h100-ndr');
  await root.getByLabel('GPUs per node').selectOption('8');
  await root.getByLabel('Nodes').selectOption('2');
  await expect(root.locator('[data-cluster-world]')).toHaveText('= 16 ranks');
  // World ≤ 16: a third node of eight is not offered, nor a ninth GPU on an 8-GPU node.
  await expect(root.getByLabel('Nodes').locator('option[value="3"]')).toBeDisabled();
  await expect(root.getByLabel('GPUs per node').locator('option[value="8"]')).toBeEnabled();
  await root.getByLabel('Nodes').selectOption('1');
  await expect(root.locator('[data-cluster-world]')).toHaveText('= 8 ranks');
  await expect(root.locator('[data-cluster-note]')).toContainText('virtual');
  await expect(root.locator('[data-status]')).toContainText('timed as h100-ndr, 1 node × 8 GPUs');
  await cluster.selectOption('laptop');
  await expect(root.locator('[data-world-select]')).toBeVisible();
});

test('the cluster controls pass axe in light and dark themes @pages', async ({ page }) => {
  const { default: AxeBuilder } = await import('@axe-core/playwright');
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    await page.goto(firstChapterPath);
    const root = pg(page);
    await root.getByLabel('Cluster').selectOption('a100-100gbe');
    const results = await new AxeBuilder({ page }).include('[data-playground]').analyze();
    expect(
      results.violations.map(
        (v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
      ),
      theme,
    ).toEqual([]);
  }
});

test('a simulated run draws a compute and a comm lane per rank and reports the step; Node prints the same virtual times', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await page.goto(INSIDE_DDP);
  const root = byTitle(page.locator('main'), 'DDP overlap on and off, in virtual time');
  await expect(root.getByLabel('Cluster')).toHaveValue('a100-hdr');
  await root.getByRole('button', { name: 'Run' }).click();
  await expect(root.locator('[data-status]')).toContainText('Finished', { timeout: 200_000 });
  await expect(root.locator('[data-status]')).toContainText('a100-hdr, 1 node × 4 GPUs');
  const report = root.locator('.pg-step-report');
  await expect(report).toContainText('charged as a 7B-parameter model');
  await expect(report).toContainText('MFU');
  await root.locator('.pg-timeline summary').click();
  await expect(root.locator('.pg-timeline summary')).toContainText('virtual time');
  for (let r = 0; r < 4; r++)
    for (const lane of ['compute', 'comm'])
      expect(
        await root.locator(`.pg-bar[data-lane="${lane}"][aria-label^="rank ${r},"]`).count(),
        `rank ${r} ${lane} lane`,
      ).toBeGreaterThan(0);
  // Node runs the backend the page ran on, so both charge the very same kernels.
  const backend = /· (\w+)/.exec((await root.locator('[data-rank="0"] h4').textContent())!)![1]!;
  const pageLines = (await root.locator('[data-rank="0"] pre').textContent())!
    .split('\n')
    .filter((l) => / ms/.test(l));
  expect(pageLines.length).toBeGreaterThanOrEqual(3);

  // The same program through the runtime's Node entry, the one `npm run ranks -- run` calls.
  const { runProgram } = await import('../../playground/cluster/node.ts');
  const { result, record } = await runProgram({
    code: readFileSync(OVERLAP, 'utf8'),
    worldSize: 4,
    backend: backend as 'cpu',
    timeoutMs: 180_000,
    cluster: { preset: 'a100-hdr', nodes: 1, gpusPerNode: 4 },
  });
  expect(result.ok).toBe(true);
  const cliLines = record.logs[0]!.filter((l) => / ms/.test(l));
  expect(cliLines).toEqual(pageLines);
});
