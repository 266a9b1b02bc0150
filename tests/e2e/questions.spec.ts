import { openEditor } from './editor';
import { test, expect } from '@playwright/test';
import { expectAxeCleanInBothThemes } from './helpers/axe-both-themes';

test.describe('interview questions', () => {
  test('numeric exercise: wrong unit, then wrong value, then right; the model answer unlocks @pages', async ({
    page,
  }) => {
    await page.goto('/questions/gradient-bytes-per-step/');
    const ex = page.locator('[data-exercise="numeric"]').first();
    await expect(page.locator('[data-model-answer]')).toBeHidden();
    await ex.getByRole('textbox').fill('');
    await ex.getByRole('button', { name: 'Check' }).click();
    await expect(ex.locator('[data-feedback]')).toContainText('Type an answer');
    await ex.getByRole('textbox').fill('14 ms');
    await ex.getByRole('button', { name: 'Check' }).click();
    await expect(ex.locator('[data-feedback]')).toContainText('a time');
    await ex.getByRole('textbox').fill('14 Gbit');
    await ex.getByRole('textbox').press('Enter');
    await expect(ex.locator('[data-feedback]')).toContainText('A byte is 8 bits');
    // A listed mistake is named before any generic hint.
    await ex.getByRole('textbox').fill('28 GB');
    await ex.getByRole('button', { name: 'Check' }).click();
    await expect(ex.locator('[data-feedback]')).toContainText('4 bytes per value (fp32)');
    await ex.getByRole('textbox').fill('7e9 * 2 B');
    await ex.getByRole('button', { name: 'Check' }).click();
    await expect(ex.locator('[data-feedback]')).toHaveText('Correct.');
    await expect(ex.locator('[data-explanation]')).toBeVisible();
    await expect(page.locator('[data-model-answer]')).toBeVisible();
    await expect(page.locator('[data-status-badge]')).toHaveText('attempted');
  });

  test('multiple choice explains the chosen option, every option once solved, and solving all exercises marks the card solved @pages', async ({
    page,
  }) => {
    await page.goto('/questions/gradient-bytes-per-step/');
    await page.locator('[data-exercise="numeric"] input').fill('14000 MB');
    await page.locator('[data-exercise="numeric"]').getByRole('button', { name: 'Check' }).click();
    const mc = page.locator('[data-exercise="choice"]');
    await mc.getByRole('button', { name: 'Check' }).click();
    await expect(mc.locator('[data-feedback]')).toContainText('Choose an option first');
    await mc.getByLabel('The number of communication steps').check();
    await mc.getByRole('button', { name: 'Check' }).click();
    await expect(mc.locator('[data-feedback]')).toContainText('Not quite');
    await expect(mc.locator('[data-option-explanation]:visible')).toHaveCount(1);
    for (const label of [
      'The bytes each rank sends',
      'The latency term of the α–β cost model',
      'The total bytes moved by all ranks together',
    ])
      await mc.getByLabel(label).check();
    await mc.getByRole('button', { name: 'Check' }).click();
    await expect(mc.locator('[data-feedback]')).toContainText('Correct');
    await expect(mc.locator('[data-option-explanation]:visible')).toHaveCount(4);
    await expect(page.locator('[data-status-badge]')).toHaveText('solved');
    // Progress survives a reload and shows on the index and at the chapter's end.
    await page.reload();
    await expect(page.locator('[data-status-badge]')).toHaveText('solved');
    await page.goto('/questions/');
    await expect(page.locator('[data-card="gradient-bytes-per-step"] .status-badge')).toHaveText(
      'solved',
    );
    await page.goto('/chapters/what-is-data-parallelism/');
    await expect(
      page.locator('ranks-chapter-questions [data-card="gradient-bytes-per-step"] .status-badge'),
    ).toHaveText('solved');
  });

  test('code exercise: the starter fails its checks across ranks, the solution passes', async ({
    page,
  }) => {
    await page.goto('/questions/code-ring-all-reduce/');
    const ex = page.locator('[data-exercise="code"]');
    await ex.getByRole('button', { name: 'Run' }).click();
    await expect(ex.locator('[data-feedback]')).toContainText('failed', { timeout: 60_000 });
    await expect(ex.locator('[data-failures] li').first()).toContainText(/^rank \d: size \d+/);
    // Paste the revealed solution into the editor and run again.
    await ex.locator('details.solution summary').click();
    const solution = await ex.locator('details.solution pre').innerText();
    await openEditor(ex);
    await ex.locator('.monaco-editor .view-lines').click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.press('Delete');
    await page.keyboard.insertText(solution);
    await ex.getByRole('button', { name: 'Run' }).click();
    await expect(ex.locator('[data-feedback]')).toHaveText('All checks passed on every rank.', {
      timeout: 60_000,
    });
    await expect(page.locator('[data-status-badge]')).toHaveText('solved');
  });

  for (const id of [
    'code-average-gradients',
    'code-bucket-gradients',
    'code-manual-ddp',
    'sharded-grad-scaler',
    'code-scaled-learning-rate',
    'code-clip-sharded-gradients',
    'code-quantized-all-gather',
  ]) {
    test(`${id}: the starter fails with a per-rank reason, the revealed solution passes in the browser`, async ({
      page,
    }) => {
      await page.goto(`/questions/${id}/`);
      const ex = page.locator('[data-exercise="code"]');
      await ex.getByRole('button', { name: 'Run' }).click();
      await expect(ex.locator('[data-feedback]')).toContainText('failed', { timeout: 60_000 });
      await expect(ex.locator('[data-failures] li').first()).toContainText(/^rank \d: /);
      await ex.locator('details.solution summary').click();
      const solution = await ex.locator('details.solution pre').innerText();
      await openEditor(ex);
      await ex.locator('.monaco-editor .view-lines').click();
      await page.keyboard.press('ControlOrMeta+A');
      await page.keyboard.press('Delete');
      await page.keyboard.insertText(solution);
      await ex.getByRole('button', { name: 'Run' }).click();
      await expect(ex.locator('[data-feedback]')).toHaveText('All checks passed on every rank.', {
        timeout: 60_000,
      });
      await expect(page.locator('[data-status-badge]')).toHaveText('solved');
    });
  }

  test('code that never ends gets a clear message and the card stays usable', async ({ page }) => {
    await page.goto('/questions/code-average-gradients/');
    const ex = page.locator('[data-exercise="code"]');
    await ex.locator('[data-listing]').click();
    await expect(ex.locator('.monaco-editor')).toBeVisible({ timeout: 30_000 });
    await ex.locator('.monaco-editor .view-lines').click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.insertText("console.log('looping');\nwhile (true) {}\n");
    await ex.getByRole('button', { name: 'Run' }).click();
    await expect(ex.locator('[data-rank="0"]')).toContainText('looping', { timeout: 30_000 });
    await ex.getByRole('button', { name: 'Stop' }).click();
    await expect(ex.locator('[data-feedback]')).toContainText('stopped');
    await page
      .locator('[data-free-answer]')
      .fill('Weight each gradient by its share of the rows before summing.');
    await page.getByRole('button', { name: 'Compare with a good answer' }).click();
    await expect(page.locator('[data-cover]')).toBeVisible();
  });

  test('free-form answer: write, tick the must-mention points, see the model answer @pages', async ({
    page,
  }) => {
    await page.goto('/questions/code-average-gradients/');
    await page.getByRole('button', { name: 'Compare with a good answer' }).click();
    await expect(page.locator('[data-free-feedback]')).toContainText('Write at least');
    await expect(page.locator('[data-cover]')).toBeHidden();
    await page
      .locator('[data-free-answer]')
      .fill(
        'Weight each rank gradient by its number of rows over the total, then sum with an all-reduce.',
      );
    await page.getByRole('button', { name: 'Compare with a good answer' }).click();
    const boxes = page.locator('[data-must-mention]');
    for (let i = 0; i < (await boxes.count()); i++) await boxes.nth(i).check();
    await expect(page.locator('[data-checklist-feedback]')).toContainText('3 of 3');
    await expect(page.locator('[data-model-answer]')).toBeVisible();
  });

  test('practice mode serves an unsolved card, and filters narrow the list @pages', async ({
    page,
  }) => {
    await page.goto('/questions/');
    const total = await page.locator('[data-card]').count();
    expect(total).toBeGreaterThanOrEqual(3);
    await page.getByLabel('Difficulty').selectOption('4');
    await expect(page.locator('[data-card]:visible')).not.toHaveCount(total);
    await expect(page.locator('[data-summary]')).toContainText('Showing');
    await page.getByLabel('Difficulty').selectOption('');
    // Solve one card, then practice must not serve it.
    await page.goto('/questions/gradient-bytes-per-step/');
    await page.evaluate(() =>
      localStorage.setItem(
        'ranks:question-progress',
        JSON.stringify({
          version: 1,
          cards: { 'gradient-bytes-per-step': { status: 'solved', at: '2026-01-01' } },
        }),
      ),
    );
    await page.goto('/questions/');
    await page.getByRole('button', { name: /Practise/ }).click();
    await expect(page).toHaveURL(/\/questions\/[\w-]+\/\?practice/);
    expect(page.url()).not.toContain('gradient-bytes-per-step');
    await expect(page.locator('[data-status-badge]')).toHaveText('not tried');
    await expect(page.locator('[data-practice-next]')).toBeVisible();
  });

  test('progress can be exported, reset and imported again; a bad file gets a clear message @pages', async ({
    page,
  }) => {
    await page.goto('/questions/');
    await page.evaluate(() =>
      localStorage.setItem(
        'ranks:question-progress',
        JSON.stringify({
          version: 1,
          cards: { 'code-ring-all-reduce': { status: 'solved', at: '2026-01-01' } },
        }),
      ),
    );
    await page.reload();
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export progress' }).click();
    const file = await (await download).path();
    page.once('dialog', (d) => d.accept());
    await page.getByRole('button', { name: 'Reset progress' }).click();
    await expect(page.locator('[data-card="code-ring-all-reduce"] .status-badge')).toHaveText(
      'not tried',
    );
    await page.locator('[data-import]').setInputFiles({
      name: 'bad.json',
      mimeType: 'application/json',
      buffer: Buffer.from('{"hello": 1}'),
    });
    await expect(page.locator('[data-progress-message]')).toContainText(
      'not a Ranks progress export',
    );
    await page.locator('[data-import]').setInputFiles(file!);
    await expect(page.locator('[data-progress-message]')).toContainText(
      'Imported progress for 1 question',
    );
    await expect(page.locator('[data-card="code-ring-all-reduce"] .status-badge')).toHaveText(
      'solved',
    );
  });

  test('keyboard only: a numeric exercise can be reached, answered and checked @pages', async ({
    page,
  }) => {
    await page.goto('/questions/gradient-bytes-per-step/');
    const input = page.locator('[data-exercise="numeric"] input');
    for (let i = 0; i < 40 && !(await input.evaluate((el) => el === document.activeElement)); i++)
      await page.keyboard.press('Tab');
    await expect(input).toBeFocused();
    await page.keyboard.type('14 GB');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await expect(page.locator('[data-exercise="numeric"] [data-feedback]')).toHaveText('Correct.');
  });

  test('question pages pass axe in light and dark themes @pages', async ({ page }) => {
    await expectAxeCleanInBothThemes(page, [
      '/questions/',
      '/questions/gradient-bytes-per-step/',
      '/questions/code-ring-all-reduce/',
    ]);
  });
  test('every card in the list has a page that renders its question with the model answer hidden @pages', async ({
    page,
  }) => {
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto('/questions/');
    const hrefs = await page
      .locator('[data-card] > a')
      .evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).getAttribute('href')!));
    expect(hrefs.length).toBeGreaterThanOrEqual(24);
    for (const href of hrefs) {
      await page.goto(href);
      await expect(page.locator('ranks-question-card h1'), href).not.toBeEmpty();
      await expect(page.locator('[data-model-answer]'), href).toBeHidden();
      await expect(page.locator('[data-status-badge]'), href).toHaveText('not tried');
      await expect(
        page.locator('.katex-error'),
        `${href} has a formula KaTeX cannot parse`,
      ).toHaveCount(0);
    }
    expect(errors).toEqual([]);
  });

  test('keyboard only: a choice exercise, the free-form answer and the reveal button are all reachable @pages', async ({
    page,
  }) => {
    await page.goto('/questions/zero-stages/');
    const focusOn = async (locator: import('@playwright/test').Locator) => {
      for (
        let i = 0;
        i < 60 && !(await locator.evaluate((el) => el === document.activeElement));
        i++
      )
        await page.keyboard.press('Tab');
      await expect(locator).toBeFocused();
    };
    await focusOn(page.locator('[data-exercise="numeric"] input'));
    await page.keyboard.type('84 GB / 8');
    await page.keyboard.press('Enter');
    await expect(page.locator('[data-exercise="numeric"] [data-feedback]')).toHaveText('Correct.');
    const mc = page.locator('[data-exercise="choice"]');
    for (const label of [
      'Each rank keeps and updates only 1/N of the optimizer state',
      'After the step the updated parameters are all-gathered',
      'The gradients can be reduce-scattered instead of all-reduced',
    ]) {
      await focusOn(mc.getByLabel(label));
      await page.keyboard.press('Space');
    }
    await focusOn(mc.getByRole('button', { name: 'Check' }));
    await page.keyboard.press('Enter');
    await expect(mc.locator('[data-feedback]')).toContainText('Correct');
    await expect(page.locator('[data-status-badge]')).toHaveText('solved');
    await page.goto('/questions/fsdp-units-prefetch/');
    await focusOn(page.getByRole('button', { name: 'Reveal it now' }));
    await page.keyboard.press('Enter');
    await expect(page.locator('[data-model-answer]')).toBeVisible();
    await focusOn(page.locator('[data-free-answer]'));
    await page.keyboard.type(
      'FSDP gathers one unit at a time and prefetches the next one while the current one computes.',
    );
    await focusOn(page.getByRole('button', { name: 'Compare with a good answer' }));
    await page.keyboard.press('Enter');
    await focusOn(page.locator('[data-must-mention]').first());
    await page.keyboard.press('Space');
    await expect(page.locator('[data-checklist-feedback]')).toContainText('1 of 4');
  });

  test('the end of each chapter lists its questions with progress, and passes axe in both themes @pages', async ({
    page,
  }) => {
    await page.goto('/chapters/inside-ddp/');
    await page.evaluate(() =>
      localStorage.setItem(
        'ranks:question-progress',
        JSON.stringify({
          version: 1,
          cards: {
            'ddp-bucketing': { status: 'solved', at: '2026-01-01' },
            'no-sync-accumulation': { status: 'attempted', at: '2026-01-01' },
          },
        }),
      ),
    );
    await page.reload();
    const block = page.locator('ranks-chapter-questions');
    await expect(block.locator('[data-card]')).toHaveCount(7);
    await expect(block.locator('[data-progress-line]')).toHaveText('1 of 7 solved.');
    await expect(block.locator('[data-card="no-sync-accumulation"] .status-badge')).toHaveText(
      'attempted',
    );
    await expectAxeCleanInBothThemes(page, [
      '/questions/zero-stages/',
      '/questions/zero-70b-memory/',
    ]);
    await expectAxeCleanInBothThemes(page, ['/chapters/inside-ddp/'], {
      scan: () => ({ include: 'ranks-chapter-questions' }),
    });
  });
});
