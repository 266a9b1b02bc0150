import { test } from '@playwright/test';
test('shot', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1400, height: 1000 });
  await page.goto('/chapters/inside-ddp/');
  const root = page.locator('main [data-playground]').filter({ has: page.getByRole('heading', { name: 'Forward, backward, all-reduce: where the time goes' }) }).first();
  console.log(await page.locator('main [data-playground] h3, main [data-playground] h2, main [data-playground] h4').allTextContents());
  await root.getByRole('button', { name: 'Run' }).click();
  await root.locator('[data-status]').filter({ hasText: /Finished|Failed/ }).waitFor({ timeout: 100_000 });
  await root.screenshot({ path: '/tmp/x/wide.png' });
  console.log(await page.evaluate(() => { const m = document.querySelector('main'); return [m!.getBoundingClientRect().width, document.querySelector('[data-playground]')!.getBoundingClientRect().width]; }));
});
