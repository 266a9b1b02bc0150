import { test, expect } from '@playwright/test';
import { expectAxeClean, expectAxeCleanInBothThemesHere } from './helpers/axe-both-themes';
import { openEditor, setCode } from './editor';
import { LEVEL_DIFFICULTIES } from '../../src/lib/questions/mock-interview';

const DAY = 86_400_000;

test.describe('practice that comes back', () => {
  test('spaced review: a card answered today is due after simulated days, by keyboard, axe clean @pages', async ({
    page,
    context,
  }) => {
    const t0 = new Date('2026-03-02T09:00:00Z');
    await page.clock.install({ time: t0 });
    await page.goto('/questions/bus-bandwidth/');
    const input = page.locator('[data-exercise="numeric"] input');
    for (let i = 0; i < 40 && !(await input.evaluate((el) => el === document.activeElement)); i++)
      await page.keyboard.press('Tab');
    await expect(input).toBeFocused();
    await page.keyboard.type('100 GB/s * 2*(8-1)/8');
    await page.keyboard.press('Enter');
    await expect(page.locator('[data-exercise="numeric"] [data-feedback]')).toHaveText('Correct.');
    await expect(page.locator('[data-review-line]')).toHaveText(/^Next review: in \d+ days\.$/);
    await page.goto('/questions/');
    await expect(page.locator('[data-due-summary]')).toContainText('Nothing is due today');

    // Ten days later (a new tab with its clock there; progress lives in this browser's storage).
    const later = await context.newPage();
    await later.clock.install({ time: new Date(t0.getTime() + 10 * DAY) });
    await later.goto('/questions/');
    await expect(later.locator('[data-due-summary]')).toContainText('1 card is due');
    const due = later.locator('[data-due-list] a');
    await expect(due).toHaveAttribute('href', '/questions/bus-bandwidth/?review');
    await later.locator('select[name="status"]').selectOption('due');
    await expect(later.locator('[data-card-list] li:not([hidden])')).toHaveCount(1);
    await expectAxeCleanInBothThemesHere(later);
    await due.focus();
    await later.keyboard.press('Enter');
    await expect(later.locator('[data-review-line]')).toHaveText('Next review: today.');
  });

  test('a mock interview runs by keyboard, grades, and summarises what to reread, axe clean @pages', async ({
    page,
  }) => {
    await page.goto('/questions/mock/');
    await page.locator('select[name="count"]').selectOption('5');
    await page.getByRole('button', { name: 'Start the interview' }).focus();
    await page.keyboard.press('Enter');
    await expect(page.locator('[data-timer]')).toContainText('left');
    await expect(page.locator('[data-setup]')).toBeHidden();
    await expect(page.getByRole('button', { name: 'Next question' })).toBeHidden();
    for (let q = 1; q <= 5; q++) {
      await expect(page.locator('[data-progress]')).toHaveText(`Question ${q} of 5`);
      await expect(page.locator('#mock-question')).toBeFocused();
      if (q === 1) await expectAxeCleanInBothThemesHere(page);
      const numeric = page.locator('ranks-mock-interview input[type="text"]');
      if (await numeric.count()) {
        await numeric.first().focus();
        await page.keyboard.type('lots');
        await page.keyboard.press('Enter');
        await expect(page.locator('ranks-mock-interview .ex-feedback').first()).toContainText(
          'not a number',
        );
      }
      await page.locator('#mock-answer').focus();
      await page.keyboard.type('Each rank holds a replica and all-reduces its gradients.');
      await page.keyboard.press('Tab');
      await page.keyboard.press('Enter'); // "Done: compare with the rubric"
      // The rubric's first box has focus: tick it on the first question only.
      if (q === 1) await page.keyboard.press('Space');
      await page
        .getByRole('button', { name: q === 5 ? 'Finish and see the summary' : 'Next question' })
        .focus();
      await page.keyboard.press('Enter');
    }
    const summary = page.locator('[data-summary]');
    await expect(summary.locator('h2')).toBeFocused();
    await expect(summary).toContainText('Overall:');
    await expect(summary.locator('[data-summary-body] > ol > li')).toHaveCount(5);
    await expect(summary).toContainText('1 of');
    await expect(summary.getByRole('heading', { name: 'Weakest topics' })).toBeVisible();
    await expect(summary.getByRole('heading', { name: 'What to reread' })).toBeVisible();
    await expect(summary.locator('a[href^="/chapters/"]').first()).toBeVisible();
    await expectAxeCleanInBothThemesHere(page);
  });

  test('a mock interview grades a code part: the solution run in its playground counts as a graded part right', async ({
    page,
  }) => {
    const id = 'code-average-gradients';
    await page.goto('/questions/mock/');
    // Draw the code card for sure: the draw keys each card of the level's pool with Math.random and
    // keeps the smallest, so give this card 0 and every other card more (then restore Math.random).
    await page.evaluate(
      ({ id, level }) => {
        const el = document.querySelector<HTMLElement>('ranks-mock-interview')!;
        const pool = (JSON.parse(el.dataset.bank!) as { id: string; difficulty: number }[]).filter(
          (c) => level.includes(c.difficulty),
        );
        const target = pool.findIndex((c) => c.id === id);
        const original = Math.random;
        let k = 0;
        Math.random = () => {
          const i = k++;
          if (k >= pool.length) Math.random = original;
          return i === target ? 0 : 0.5 + i / (4 * pool.length);
        };
      },
      { id, level: LEVEL_DIFFICULTIES.standard },
    );
    await page.locator('select[name="level"]').selectOption('standard');
    await page.locator('select[name="count"]').selectOption('5');
    await page.getByRole('button', { name: 'Start the interview' }).click();
    const block = page.locator(`[data-code-for="${id}"]`);
    for (let q = 0; q < 5 && !(await block.isVisible()); q++) {
      await page.getByRole('button', { name: 'Done: compare with the rubric' }).click();
      await page.getByRole('button', { name: 'Next question' }).click();
    }
    await expect(block).toBeVisible();
    await block.locator('details.solution summary').click();
    const solution = await block.locator('details.solution pre').innerText();
    await openEditor(block);
    await setCode(page, block, solution);
    await block.getByRole('button', { name: 'Run' }).click();
    await expect(block.locator('[data-feedback]')).toHaveText('All checks passed on every rank.', {
      timeout: 60_000,
    });
    await page.getByRole('button', { name: 'Done: compare with the rubric' }).click();
    await page.getByRole('button', { name: 'End the interview now' }).click();
    await expect(
      page
        .locator('[data-summary-body] li')
        .filter({ has: page.locator(`a[href="/questions/${id}/"]`) }),
    ).toContainText('1 of 1 graded parts right');
  });

  test('a chapter links its problem set; steps are checked by keyboard, a listed mistake is named, axe clean @pages', async ({
    page,
  }) => {
    await page.goto('/chapters/collectives/');
    await page.getByRole('link', { name: /Worked problem set/ }).click();
    await expect(page).toHaveURL(/\/questions\/problems\/collectives\/$/);
    const step = page.locator('[data-step]').first();
    await step.locator('input').focus();
    await page.keyboard.type('15/16 * 2 GB');
    await page.keyboard.press('Enter');
    await expect(step.locator('[data-feedback]')).toContainText('forgot the 2 in 2(n − 1)/n');
    await step.locator('input').fill('');
    await page.keyboard.type('2 * 15/16 * 2 GB');
    await page.keyboard.press('Enter');
    await expect(step.locator('[data-feedback]')).toHaveText('Correct.');
    await expect(step.locator('details')).toHaveAttribute('open', '');
    await expectAxeCleanInBothThemesHere(page);
  });

  test('the practice pages fit a 390 px phone and are axe clean there @pages', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    for (const path of [
      '/questions/',
      '/questions/mock/',
      '/questions/problems/communicating-less/',
    ]) {
      await page.goto(path);
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow, `${path} is wider than the phone`).toBe(0);
      await expectAxeClean(page, path);
    }
  });
});
