// Issue 20, part 1: warm ranks and a Run that does not wait for the editor. ≈ 1–2 min on 2 loaded cores.
import { test, expect, type Page } from '@playwright/test';
import { firstChapterPath } from './pages';
import { firstPlayground as pg, openEditor, setCode } from './editor';
import { recordNetworkBytes } from './helpers/network-bytes';

const MB = 1024 * 1024;
const rankWorkers = (page: Page) => page.workers().filter((w) => /browser-worker/.test(w.url()));
/** Workers a world gets: one per rank up to the machine's cores, then logical ranks share them (rank-host.ts). */
const hostWorkers = (page: Page, world: number) =>
  page.evaluate((w) => Math.min(w, navigator.hardwareConcurrency), world);

/** In the page: clicks Run and resolves with ms from the click to the first line, and to a line on every rank. */
function timeRun(worldSize: number): Promise<{ first: number; everyRank: number; at: number }> {
  return new Promise((resolve) => {
    const root = document.querySelector<HTMLElement>('[data-playground]')!;
    const t0 = performance.now();
    let first = 0;
    let at = 0;
    const observer = new MutationObserver(() => {
      const printed = [...Array(worldSize).keys()].map(
        (r) => (root.querySelector(`[data-rank="${r}"] pre`)?.textContent ?? '') !== '',
      );
      if (!first && printed.some(Boolean)) [first, at] = [performance.now() - t0, Date.now()];
      if (printed.every(Boolean)) {
        observer.disconnect();
        resolve({ first, everyRank: performance.now() - t0, at });
      }
    });
    observer.observe(root, { subtree: true, childList: true, characterData: true });
    root.querySelector<HTMLButtonElement>('[data-action="run"]')!.click();
  });
}

test.describe('instant Run (issue 20)', () => {
  test('a cold first Run runs the listing without the editor, fetches ≤ 1.2 MB gzip before its first line and nothing twice', async ({
    page,
    context,
  }) => {
    const fetched = recordNetworkBytes(context);
    await page.goto(firstChapterPath);
    const run = await page.evaluate(timeRun, 4);
    const root = pg(page);
    await expect(root.locator('[data-status]')).toContainText('Finished', { timeout: 60_000 });
    await expect(root.locator('[data-rank="3"]')).toContainText(
      'matches the full-batch gradient: true',
    );
    const beforeFirst = fetched.filter((f) => f.at <= run.at);
    expect(beforeFirst.filter((f) => /editor\.api|ts\.worker|typescript/.test(f.url))).toEqual([]);
    const bytes = (await Promise.all(beforeFirst.map((f) => f.gzip))).reduce((a, b) => a + b, 0);
    console.log(
      `cold Run: first line after ${run.first.toFixed(0)} ms, every rank after ${run.everyRank.toFixed(0)} ms, ${(bytes / 1024).toFixed(0)} KB gzip fetched before the first line`,
    );
    expect(bytes).toBeLessThanOrEqual(1.2 * MB);
    // The editor comes after the run, in place of the listing, holding the code that ran.
    await expect(root.locator('.monaco-editor')).toBeVisible({ timeout: 60_000 });
    await expect(root.locator('[data-listing]')).toHaveCount(0);
    // Over the network, the page and its workers fetched each file once (the service worker's own copies for
    // offline use are its business, not the Run's).
    const overNetwork = await Promise.all(
      fetched.filter((f) => !f.sw).map(async (f) => ({ url: f.url, gzip: await f.gzip })),
    );
    const counts = new Map<string, number>();
    for (const f of overNetwork) if (f.gzip > 0) counts.set(f.url, (counts.get(f.url) ?? 0) + 1);
    expect([...counts].filter(([, n]) => n > 1)).toEqual([]);
  });

  // Issue 20's target, measured by `npm run bench:page` rather than gating CI: on the shared 2-core machine it
  // took 237 and 302 ms at load 15–20 (≈ 100 ms of it CPU; the rest is waiting for a core). The
  // cluster-core/rank-main performance marks split a Run's latency in a profile.
  test('a warm Run prints a line on every rank within 250 ms of the click at 4 ranks @bench', async ({
    page,
  }) => {
    await page.goto(firstChapterPath);
    // A reader at the playground, as before any real click on Run: warming waits for a reader (nothing runs
    // before interaction) and goes to the playground on or near the screen.
    await pg(page).getByRole('button', { name: 'Run' }).scrollIntoViewIfNeeded();
    await page.mouse.move(200, 200);
    await page.waitForTimeout(2000); // idle ≥ 2 s since load
    const run = await page.evaluate(timeRun, 4);
    console.log(
      `warm Run after 2 s idle: first line after ${run.first.toFixed(0)} ms, every rank after ${run.everyRank.toFixed(0)} ms`,
    );
    await expect(pg(page).locator('[data-status]')).toContainText('Finished', {
      timeout: 60_000,
    });
    expect(run.everyRank).toBeLessThan(250);
  });

  test('every run gets fresh workers: a global set in run 1 is absent in run 2; another world size re-warms', async ({
    page,
  }) => {
    await page.goto(firstChapterPath);
    const root = pg(page);
    await openEditor(root);
    await setCode(
      page,
      root,
      "import { dist } from 'ranks';\nconst g = globalThis as { leaked?: string };\nconsole.log(`rank ${dist.rank} saw ${g.leaked ?? 'nothing'}`);\ng.leaked = 'run 1';\n",
    );
    const workers4 = await hostWorkers(page, 4);
    for (const run of [1, 2]) {
      await expect(async () => expect(rankWorkers(page)).toHaveLength(workers4)).toPass({
        timeout: 30_000,
      }); // warm: prepared before the click
      await root.getByRole('button', { name: 'Run' }).click();
      await expect(root.locator('[data-status]')).toContainText('Finished', { timeout: 60_000 });
      for (let r = 0; r < 4; r++)
        await expect(root.locator(`[data-rank="${r}"]`)).toContainText(`rank ${r} saw nothing`);
      console.log(`run ${run}: every rank started clean`);
    }
    // Another world size: the four warm ranks are terminated and two are prepared instead.
    const workers2 = await hostWorkers(page, 2);
    await root.locator('[data-world-select]').selectOption('2');
    await expect(async () => expect(rankWorkers(page)).toHaveLength(workers2)).toPass({
      timeout: 30_000,
    });
  });
});
