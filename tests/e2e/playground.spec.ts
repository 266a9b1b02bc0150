import { test, expect } from '@playwright/test';
import { firstChapterPath } from './pages';
import { firstPlayground as pg, setCode } from './editor';
import { expectAxeCleanInBothThemes } from './helpers/axe-both-themes';
import { runAndWait } from './helpers/run-and-wait';

test.describe('chapter 1 playground', () => {
  test.beforeEach(async ({ page }) => {
    await page.goto(firstChapterPath);
  });

  test('before interaction it is a static listing: no editor, no workers, no tfjs', async ({
    page,
  }) => {
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    await page.reload({ waitUntil: 'networkidle' });
    await expect(pg(page).locator('[data-listing] pre')).toContainText('dist.allReduce');
    await expect(pg(page).locator('.monaco-editor')).toHaveCount(0);
    expect(
      requests.filter((u) => /editor\.api|browser-worker|workbench|ts\.worker/.test(u)),
    ).toEqual([]);
  });

  test('Run: all four rank panes show the same averaged gradient, labelled with their backend', async ({
    page,
  }) => {
    const root = pg(page);
    await runAndWait(root);
    const averaged: string[] = [];
    for (let r = 0; r < 4; r++) {
      const pane = root.locator(`[data-rank="${r}"]`);
      await expect(pane).toContainText('matches the full-batch gradient: true');
      await expect(pane.locator('h4')).toHaveText(/rank \d · (wasm|cpu|webgpu)/);
      averaged.push((await pane.textContent())!.match(/averaged gradient ([-\d. ]+)/)![1]!.trim());
    }
    expect(new Set(averaged).size).toBe(1);
    // The timeline drew the all-reduce on every lane.
    await root.locator('.pg-timeline summary').click();
    expect(await root.locator('.pg-bar.kind-allReduce').count()).toBeGreaterThanOrEqual(4);
    // The combined view interleaves ranks.
    await root.getByRole('button', { name: 'Combined view' }).click();
    await expect(root.locator('.pg-combined')).toContainText('[rank 3]');
  });

  test('a syntax error is marked at its line; fixing it runs again', async ({ page }) => {
    const root = pg(page);
    await root.locator('[data-listing]').click();
    await expect(root.locator('.monaco-editor')).toBeVisible({ timeout: 30_000 });
    await setCode(
      page,
      root,
      "import { dist } from 'ranks';\nconsole.log('hello from', dist.rank);\nconst broken = ;\n",
    );
    await root.getByRole('button', { name: 'Run' }).click();
    await expect(root.locator('.pg-notice.error')).toContainText('line 3');
    await expect(root.locator('.monaco-editor .squiggly-error')).toHaveCount(1);
    await setCode(
      page,
      root,
      "import { dist } from 'ranks';\nconsole.log('hello from', dist.rank);\n",
    );
    await root.getByRole('button', { name: 'Run' }).click();
    await expect(root.locator('[data-rank="2"]')).toContainText('hello from 2', {
      timeout: 30_000,
    });
    await expect(root.locator('.pg-notice.error')).toHaveCount(0);
  });

  test('Stop ends while (true) {} within a second and the page stays responsive', async ({
    page,
  }) => {
    const root = pg(page);
    await root.locator('[data-listing]').click();
    await expect(root.locator('.monaco-editor')).toBeVisible({ timeout: 30_000 });
    await setCode(page, root, "console.log('spinning');\nwhile (true) {}\n");
    await root.getByRole('button', { name: 'Run' }).click();
    await expect(root.locator('[data-rank="0"]')).toContainText('spinning', { timeout: 30_000 });
    const t0 = Date.now();
    await root.getByRole('button', { name: 'Stop' }).click();
    await expect(root.locator('[data-status]')).toContainText('Stopped');
    expect(Date.now() - t0).toBeLessThan(1000);
    expect(await page.evaluate(() => document.title.length > 0)).toBe(true);
    await expect(root.getByRole('button', { name: 'Run' })).toBeEnabled();
  });

  test('edits persist across reloads, show a marker, and Reset restores the original', async ({
    page,
  }) => {
    const root = pg(page);
    await root.locator('[data-listing]').click();
    await expect(root.locator('.monaco-editor')).toBeVisible({ timeout: 30_000 });
    await setCode(page, root, "console.log('my edit');\n");
    await expect(root.locator('[data-edited]')).toBeVisible();
    await page.reload();
    await expect(pg(page).locator('[data-edited]')).toBeVisible();
    await pg(page).locator('[data-listing]').click();
    await expect(pg(page).locator('.monaco-editor')).toContainText('my edit', { timeout: 30_000 });
    page.once('dialog', (d) => d.accept());
    await pg(page).getByRole('button', { name: 'Reset' }).click();
    await expect(pg(page).locator('.monaco-editor')).toContainText('Four ranks, one linear model');
    await expect(pg(page).locator('[data-edited]')).toBeHidden();
  });

  test('Share makes a link that reopens the edited code without running it', async ({
    page,
    context,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const root = pg(page);
    await root.locator('[data-listing]').click();
    await expect(root.locator('.monaco-editor')).toBeVisible({ timeout: 30_000 });
    await setCode(page, root, "console.log('shared code ran');\n");
    await root.getByRole('button', { name: 'Share' }).click();
    await expect(root.locator('[data-status]')).toContainText('opens this code');
    const url = page.url();
    expect(url).toContain('#pg-01-average-gradients=');
    const other = await context.newPage();
    await other.evaluate(() => localStorage.clear()).catch(() => {});
    await other.goto(url);
    const shared = pg(other);
    await expect(shared.locator('.monaco-editor')).toContainText('shared code ran', {
      timeout: 30_000,
    });
    await expect(shared.locator('[data-status]')).toContainText('has not run');
    await expect(shared.locator('[data-rank]')).toHaveCount(0);
    await other.close();
  });

  test('IntelliSense offers allReduce after typing dist.', async ({ page }) => {
    const root = pg(page);
    await root.locator('[data-listing]').click();
    await expect(root.locator('.monaco-editor')).toBeVisible({ timeout: 30_000 });
    await setCode(page, root, "import { dist } from 'ranks';\n");
    await page.keyboard.type('dist.');
    await expect(page.locator('.suggest-widget')).toContainText('allReduce', { timeout: 30_000 });
    // Hover docs and type errors come from the same generated typings.
    await page.keyboard.press('Escape');
    await page.keyboard.insertText('allReduce(42);\n');
    await expect(root.locator('.monaco-editor .squiggly-error')).toHaveCount(1, {
      timeout: 30_000,
    });
  });
});

test('an opened playground with output passes axe in light and dark themes', async ({ page }) => {
  await expectAxeCleanInBothThemes(page, ['/lab/collectives/'], {
    prepare: async () => {
      await runAndWait(pg(page));
      await pg(page).locator('.pg-timeline summary').click();
    },
    scan: () => ({ include: '[data-playground]' }),
  });
});
