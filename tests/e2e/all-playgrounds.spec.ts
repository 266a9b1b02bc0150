import { test, expect } from '@playwright/test';
import { chapterPaths } from './pages';

// Every playground the book embeds must run in the browser and print what its page promises.
const pages = [...chapterPaths(), '/lab/collectives/'];

for (const path of pages) {
  test(`every playground on ${path} runs and prints its expected lines on every rank`, async ({ page }) => {
    test.setTimeout(600_000);
    await page.goto(path);
    const playgrounds = page.locator('[data-playground]');
    const count = await playgrounds.count();
    for (let i = 0; i < count; i++) {
      const root = playgrounds.nth(i);
      const expected = JSON.parse((await root.getAttribute('data-expect')) ?? '[]') as string[];
      const world = Number(await root.getAttribute('data-world'));
      await root.getByRole('button', { name: 'Run' }).click();
      await expect(root.locator('[data-status]'), `${path} playground ${i}`).toContainText(/Finished|Failed|Timed out|syntax error/, { timeout: 240_000 });
      await expect(root.locator('[data-status]'), `${path} playground ${i}: ${await root.locator('.pg-output').textContent()}`).toContainText('Finished');
      for (let r = 0; r < world; r++) {
        for (const line of expected) await expect(root.locator(`[data-rank="${r}"]`), `${path} playground ${i} rank ${r}`).toContainText(line);
      }
    }
  });
}
