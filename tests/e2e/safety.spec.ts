/**
 * Issue 19: careless and hostile programs. The page never freezes, the reader's work is never lost,
 * and a program cannot reach another origin. Costs are noted per test (2 cores, loaded machine).
 */
import { test, expect, type Page, type Locator } from '@playwright/test';
import { firstChapterPath } from './pages';

const pg = (page: Page) => page.locator('[data-playground]').first();

async function openEditor(root: Locator) {
  await root.locator('[data-listing]').click();
  await expect(root.locator('.monaco-editor')).toBeVisible({ timeout: 30_000 });
}

/** Replaces the whole editor content (insertText avoids Monaco's auto-closing brackets). */
async function setCode(page: Page, root: Locator, code: string) {
  await root.locator('.monaco-editor .view-lines').click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(code);
}

/** Starts recording main-thread long tasks (durations in ms) into window.__longTasks. */
async function watchLongTasks(page: Page) {
  await page.evaluate(() => {
    const w = window as unknown as { __longTasks: number[] };
    w.__longTasks = [];
    new PerformanceObserver((list) => w.__longTasks.push(...list.getEntries().map((e) => e.duration))).observe({ type: 'longtask' });
  });
}
const longestTask = (page: Page) => page.evaluate(() => Math.max(0, ...(window as unknown as { __longTasks: number[] }).__longTasks));

/** Clicks Stop in the page and resolves with the milliseconds until the status says Stopped. */
const stopAndTime = (root: Locator) => root.evaluate((el) => new Promise<number>((resolve) => {
  const status = el.querySelector('[data-status]')!;
  const t0 = performance.now();
  const seen = () => status.textContent!.startsWith('Stopped') && (resolve(performance.now() - t0), true);
  new MutationObserver(seen).observe(status, { childList: true, characterData: true, subtree: true });
  el.querySelector<HTMLButtonElement>('.pg-stop')!.click();
}));

test.describe('output floods (item 2)', () => {
  // ≈ 20 s: the flood runs about 6 s, then Stop.
  test('10^6 lines on 4 ranks: no long task over 200 ms, panes keep their tail, Stop ends the run within 0.5 s', async ({ page }) => {
    await page.goto(firstChapterPath);
    const root = pg(page);
    await openEditor(root);
    await setCode(page, root, "import { dist } from 'ranks';\nfor (let i = 0; i < 1_000_000; i++) console.log('flood line', i, 'from rank', dist.rank);\n");
    await root.getByRole('button', { name: 'Run' }).click();
    for (let r = 0; r < 4; r++) await expect(root.locator(`[data-rank="${r}"] .pg-dropped`)).toContainText('earlier lines not shown', { timeout: 30_000 });
    // Measured while the flood is under way (the panes first appearing lays out the chapter once).
    await watchLongTasks(page);
    await page.waitForTimeout(5_000);
    await expect(root.locator('[data-status]')).toContainText('Running');
    const stopMs = await stopAndTime(root);
    expect(stopMs).toBeLessThan(500);
    await expect(root.locator('[data-status]')).toContainText('Stopped');
    expect(await longestTask(page)).toBeLessThan(200);
    // Each pane holds at most its cap, and nothing more arrives after Stop.
    for (let r = 0; r < 4; r++) {
      const shown = (await root.locator(`[data-rank="${r}"] pre`).textContent())!.trim().split('\n');
      expect(shown.length).toBeLessThanOrEqual(300);
      expect(shown.at(-1)).toMatch(new RegExp(`^flood line \\d+ from rank ${r}$`));
    }
    const before = await root.locator('[data-rank="0"] pre').textContent();
    await page.waitForTimeout(500);
    expect(await root.locator('[data-rank="0"] pre').textContent()).toBe(before);
  });

  // ≈ 8 s.
  test('the combined view takes 2,000 lines per rank without stalling, and the full log downloads', async ({ page }) => {
    await page.goto(firstChapterPath);
    const root = pg(page);
    await openEditor(root);
    await setCode(page, root, "import { dist } from 'ranks';\nfor (let i = 0; i < 2000; i++) console.log('line', i, 'from rank', dist.rank);\n");
    await root.getByRole('button', { name: 'Run' }).click();
    await expect(root.locator('[data-status]')).toContainText(/Finished|Failed|Timed out/, { timeout: 60_000 });
    await root.getByRole('button', { name: 'Combined view' }).click();
    await watchLongTasks(page);
    await root.getByRole('button', { name: 'Run' }).click();
    await expect(root.locator('[data-status]')).toContainText('Finished', { timeout: 60_000 });
    const seconds = Number((await root.locator('[data-status]').textContent())!.match(/Finished in ([\d.]+) s/)![1]);
    expect(seconds).toBeLessThan(20);
    expect(await longestTask(page)).toBeLessThan(200);
    await expect(root.locator('.pg-combined')).toContainText('[rank 3] line 1999 from rank 3');
    await expect(root.locator('.pg-output > .pg-dropped')).toContainText('Showing the last 600 of 8,000 lines');
    const download = page.waitForEvent('download');
    await root.getByRole('button', { name: 'Download log' }).click();
    const text = await (await (await download).createReadStream()).toArray().then((chunks) => Buffer.concat(chunks).toString('utf8'));
    const lines = text.trim().split('\n');
    expect(lines).toHaveLength(8_000);
    expect(lines).toContain('[rank 2] line 0 from rank 2');
  });
});

// ≈ 25 s: 8 ranks × 1,200 ring all-reduces (134,400 trace events) on 2 cores.
test('a long trace (item 7): the timeline draws a capped prefix and says so', async ({ page }) => {
  test.setTimeout(150_000);
  await page.goto(firstChapterPath);
  const root = pg(page);
  await openEditor(root);
  await root.locator('[data-world-select]').selectOption('8');
  await setCode(page, root, "import * as tf from '@tensorflow/tfjs';\nimport { dist } from 'ranks';\nconst t = tf.ones([64]);\nfor (let i = 0; i < 1200; i++) (await dist.allReduce(t, { algorithm: 'ring' })).dispose();\nconsole.log('ring loop done');\n");
  await root.getByRole('button', { name: 'Run' }).click();
  await expect(root.locator('[data-status]')).toContainText('Finished', { timeout: 120_000 });
  await expect(root.locator('.pg-notice.error')).toHaveCount(0);
  await root.locator('.pg-timeline summary').click();
  await expect(root.locator('.pg-timeline-note')).toContainText('This run traced 134,400 collective steps; the timeline draws the first 10,000');
  expect(await root.locator('.pg-bar').count()).toBe(10_000);
});
