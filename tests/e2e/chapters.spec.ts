import { test, expect, type Page } from '@playwright/test';
import { chapterPaths } from './pages';
import { ringAllReduceSchedule, ringFrames } from '../../src/lib/figures/ring-schedule';
import {
  scalingCurve,
  defaultScalingInputs,
  SCALING_DEFAULTS,
} from '../../src/lib/figures/scaling-model';
import { MODEL_NAME } from '../../src/components/scaling/scaling-series';
import { fmtPercent, fmtSeconds } from '../../src/lib/figures/format-quantities';
import { PRIMARY_SOURCES, SOURCE_MAP } from '../../src/lib/source-map';
import { expectAxeCleanInBothThemes } from './helpers/axe-both-themes';

const COLLECTIVES = '/chapters/collectives/';
const FROM_SCRATCH = '/chapters/data-parallel-from-scratch/';

test('every chapter renders its math with KaTeX and no parse errors @pages', async ({ page }) => {
  for (const path of chapterPaths()) {
    await page.goto(path);
    expect(await page.locator('.katex').count(), path).toBeGreaterThan(0);
    await expect(page.locator('.katex-error'), path).toHaveCount(0);
    expect(await page.locator('main').innerText(), path).not.toMatch(/\$\$|\\frac|undefined|NaN/);
  }
});

/** Cell texts of the ring grid, row by row. */
async function gridCells(page: Page): Promise<string[][]> {
  return page
    .locator('ranks-ring-allreduce .ring-grid tbody tr')
    .evaluateAll((rows) =>
      rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.firstChild?.textContent ?? '')),
    );
}

/** What the grid should show for frame `step`, from the figure module. */
function expectedCells(n: number, step: number): string[][] {
  const frame = ringFrames(n, ringAllReduceSchedule(n, 4096))[step]!;
  const full = (1 << n) - 1;
  return frame.map((row) =>
    row.map((mask) =>
      mask === full
        ? 'all ✓'
        : Array.from({ length: n }, (_, r) => r)
            .filter((r) => mask & (1 << r))
            .join('+'),
    ),
  );
}

test('ring all-reduce animation steps by button and keyboard through the schedule @pages', async ({
  page,
}) => {
  await page.goto(COLLECTIVES);
  const w = page.locator('ranks-ring-allreduce');
  await w.scrollIntoViewIfNeeded();
  await expect(w.locator('[data-counter]')).toHaveText('0 / 6');
  expect(await gridCells(page)).toEqual(expectedCells(4, 0));
  await w.getByRole('button', { name: 'Next' }).click();
  await expect(w.locator('[data-counter]')).toHaveText('1 / 6');
  await expect(w.locator('[data-status]')).toContainText('reduce-scatter');
  await expect(w.locator('.ring-arrow')).toHaveCount(4);
  expect(await gridCells(page)).toEqual(expectedCells(4, 1));
  // Keyboard: arrows step, End jumps to the finished state, Home back to the start.
  await w.getByRole('button', { name: 'Next' }).focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(w.locator('[data-counter]')).toHaveText('3 / 6');
  expect(await gridCells(page)).toEqual(expectedCells(4, 3));
  await expect(w.locator('[data-status]')).toContainText('Reduce-scatter done');
  await page.keyboard.press('End');
  await expect(w.locator('[data-counter]')).toHaveText('6 / 6');
  expect((await gridCells(page)).flat().every((c) => c === 'all ✓')).toBe(true);
  await expect(w.locator('[data-status]')).toContainText('all-gather');
  await page.keyboard.press('Home');
  await expect(w.locator('[data-counter]')).toHaveText('0 / 6');
  await expect(w.getByRole('button', { name: 'Prev' })).toHaveAttribute('aria-disabled', 'true');
  await page.keyboard.press('ArrowLeft'); // clamps at the start
  await expect(w.locator('[data-counter]')).toHaveText('0 / 6');
  await page.keyboard.press('ArrowRight');
  await w.getByRole('button', { name: 'Prev' }).click();
  await expect(w.locator('[data-counter]')).toHaveText('0 / 6');
  // Other ring sizes: 2(n−1) steps, and Play runs to the end.
  await w.locator('[data-ranks-select]').selectOption('6');
  await expect(w.locator('[data-counter]')).toHaveText('0 / 10');
  expect(await gridCells(page)).toEqual(expectedCells(6, 0));
  await w.getByRole('button', { name: 'Play' }).click();
  await expect(w.getByRole('button', { name: 'Pause' })).toHaveAttribute('aria-pressed', 'true');
  await expect(w.locator('[data-counter]')).toHaveText('10 / 10', { timeout: 20_000 });
  await expect(w.getByRole('button', { name: 'Play' })).toHaveAttribute('aria-pressed', 'false');
  expect(await gridCells(page)).toEqual(expectedCells(6, 10));
});

test('ring animation respects reduced motion and renders its first frame without JavaScript @pages', async ({
  browser,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(COLLECTIVES);
  await expect(page.locator('ranks-ring-allreduce [data-counter]')).toHaveText('0 / 6');
  expect(await gridCells(page)).toEqual(expectedCells(4, 0));
  await context.close();
  const reduced = await browser.newContext({ reducedMotion: 'reduce' });
  const p2 = await reduced.newPage();
  await p2.goto(COLLECTIVES);
  const transition = await p2
    .locator('ranks-ring-allreduce .ring-cell')
    .first()
    .evaluate((el) => getComputedStyle(el).transitionDuration);
  expect(transition).toBe('0s');
  await reduced.close();
});

test('scaling plot prints the cluster model and measures a real run on 1, 2 and 4 ranks', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await page.goto(FROM_SCRATCH);
  const w = page.locator('ranks-scaling-plot');
  const curve = scalingCurve(SCALING_DEFAULTS.worldSizes, defaultScalingInputs(0));
  const overlapped = scalingCurve(SCALING_DEFAULTS.worldSizes, defaultScalingInputs(1));
  const rows = w.locator('.sc-table tbody tr');
  await expect(rows).toHaveCount(curve.length);
  // The table holds both curves, so ticking Overlap never leaves it describing the other one.
  for (const [i, p] of curve.entries()) {
    await expect(rows.nth(i).locator('td')).toHaveText([
      String(p.n),
      String(p.nodes),
      fmtSeconds(p.commSeconds),
      p.throughput.toFixed(0),
      overlapped[i]!.throughput.toFixed(0),
      p.ideal.toFixed(0),
      fmtPercent(p.efficiency),
      fmtPercent(overlapped[i]!.efficiency),
    ]);
  }
  await expect(w.locator('[data-model-chart] path')).toHaveCount(2);
  await expect(w.locator('figcaption')).toContainText(
    `keep ${fmtPercent(curve.at(-1)!.efficiency)} of linear scaling without overlap, ${fmtPercent(overlapped.at(-1)!.efficiency)} with it`,
  );
  await expect(w.locator('figcaption')).toContainText(`up to ${curve.at(-1)!.nodes} nodes`);
  await expect(w.locator('figcaption')).not.toContainText('Two nodes');
  const before = await w.locator('[data-model-chart] path.sc-model').getAttribute('d');
  await w.getByLabel('Overlap the all-reduce with the backward pass').check();
  await expect(w.locator('[data-model-name]')).toHaveText(MODEL_NAME.on);
  expect(await w.locator('[data-model-chart] path.sc-model').getAttribute('d')).not.toBe(before);

  await w.getByRole('button', { name: /Measure on this machine/ }).click();
  await expect(w.locator('[data-measure-status]')).toContainText('Done:', { timeout: 200_000 });
  const measured = JSON.parse((await w.getAttribute('data-measured'))!) as {
    n: number;
    y: number;
  }[];
  expect(measured.map((p) => p.n)).toEqual([1, 2, 4]);
  for (const p of measured) expect(p.y).toBeGreaterThan(0);
  await expect(w.locator('[data-measured-chart] circle')).toHaveCount(6);
});

// Chapters 2 and 3 are scanned for axe and held to the 20 KB script budget with every chapter in site.spec.ts.
test('the sources page passes axe-core in light and dark themes @pages', async ({ page }) => {
  await expectAxeCleanInBothThemes(page, ['/sources/']);
});

test('the sources page links every source topic to a heading that exists @pages', async ({
  page,
}) => {
  await page.goto('/sources/');
  const topicLinks = await page
    .locator('[data-source-topics] td a')
    .evaluateAll((as) => as.map((a) => a.getAttribute('href')!));
  expect(topicLinks).toHaveLength(SOURCE_MAP.reduce((a, d) => a + d.topics.length, 0));
  // The primary-source table links each claim to its chapter section too (its other links leave the site).
  const claimLinks = await page
    .locator('[data-primary-sources] td a[href^="/"]')
    .evaluateAll((as) => as.map((a) => a.getAttribute('href')!));
  expect(claimLinks).toHaveLength(PRIMARY_SOURCES.length);
  const links = [...topicLinks, ...claimLinks];
  const byPage = new Map<string, Set<string>>();
  for (const href of links) {
    const [path, anchor] = href.split('#') as [string, string];
    if (!byPage.has(path)) {
      await page.goto(path);
      byPage.set(
        path,
        new Set(await page.locator('main [id]').evaluateAll((els) => els.map((e) => e.id))),
      );
    }
    expect([...byPage.get(path)!], href).toContain(decodeURIComponent(anchor));
  }
  for (const p of byPage.keys()) expect(chapterPaths()).toContain(p);
});
