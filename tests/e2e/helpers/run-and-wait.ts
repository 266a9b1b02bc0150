import { expect, type Locator } from '@playwright/test';

/** Presses a playground's Run and waits until its status line says the run ended as expected. */
export async function runAndWait(
  root: Locator,
  { status = 'Finished', timeout = 60_000 }: { status?: string | RegExp; timeout?: number } = {},
): Promise<void> {
  await root.getByRole('button', { name: 'Run' }).click();
  await expect(root.locator('[data-status]')).toContainText(status, { timeout });
}

/** Expects each of the first `worldSize` rank panes to show `text`. */
export async function expectEveryRank(
  root: Locator,
  worldSize: number,
  text: string,
): Promise<void> {
  for (let r = 0; r < worldSize; r++)
    await expect(root.locator(`[data-rank="${r}"]`), `rank ${r}`).toContainText(text);
}
