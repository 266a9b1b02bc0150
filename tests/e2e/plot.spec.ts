import { test, expect } from '@playwright/test';
import { firstPlayground as pg, openEditor, setCode } from './editor';
import { expectAxeCleanInBothThemesHere } from './helpers/axe-both-themes';
import { runAndWait } from './helpers/run-and-wait';

const PROGRAM = `import { dist, plot } from 'ranks';
for (let step = 0; step < 5; step++) plot.line('loss', step, (dist.rank + 1) / (step + 1));
plot.bar('MiB held', 'params', 4 * (dist.rank + 1));
plot.bar('MiB held', 'grads', 2, { series: 'rank ' + dist.rank });
console.log('plotted');`;

test('plot draws an SVG chart per name with a legend, and a keyboard table of every value; axe clean in both themes', async ({
  page,
}) => {
  test.setTimeout(180_000); // a run, then two axe passes: over 90 s on a loaded 2-core machine
  await page.goto('/lab/collectives/');
  const root = pg(page);
  await openEditor(root);
  await setCode(page, root, PROGRAM);
  await runAndWait(root);
  const world = await root.locator('.pg-pane').count();
  expect(world).toBeGreaterThan(1);

  const loss = root.locator('figure[data-chart="loss"]');
  const picture = loss.getByRole('img');
  await expect(picture).toHaveAttribute(
    'aria-label',
    new RegExp(
      `^Line chart "loss": ${world} series \\(rank \\d(, rank \\d)*\\); x from 0 to 4; values from 0\\.2 to ${world}\\.`,
    ),
  );
  await expect(loss.locator('svg[role="img"] polyline')).toHaveCount(world);
  // In rank order, whichever rank drew first (arrival order changes from run to run).
  await expect(loss.locator('.pg-plot-legend li')).toHaveText(
    Array.from({ length: world }, (_, r) => `rank ${r}`),
  );
  const bars = root.locator('figure[data-chart="MiB held"]');
  await expect(bars.getByRole('img')).toHaveAttribute('aria-label', /^Bar chart "MiB held"/);
  await expect(bars.locator('svg[role="img"] rect')).toHaveCount(2 * world);
  await expect(bars.locator('.pg-plot-legend li')).toHaveCount(world);

  // The table, by keyboard: focus the toggle, press Enter; every rank's column holds (rank + 1) / (step + 1).
  const toggle = loss.getByRole('button', { name: 'Show table' });
  await toggle.focus();
  await page.keyboard.press('Enter');
  await expect(loss.getByRole('button', { name: 'Hide table' })).toHaveAttribute(
    'aria-expanded',
    'true',
  );
  const table = loss.getByRole('table');
  await expect(table.locator('tbody tr')).toHaveCount(5);
  const header = await table.locator('thead th').allTextContents();
  expect(header[0]).toBe('x');
  const rows = await table
    .locator('tbody tr')
    .evaluateAll((trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent)));
  rows.forEach((row, step) => {
    expect(row[0]).toBe(String(step));
    header.slice(1).forEach((name, i) => {
      const rank = Number(name.split(' ')[1]);
      expect(row[i + 1]).toBe(String(Number(((rank + 1) / (step + 1)).toPrecision(4))));
    });
  });

  await expectAxeCleanInBothThemesHere(page, { include: '.pg-plots' });
});
