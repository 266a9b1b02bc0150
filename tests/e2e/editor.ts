import { expect, type Locator, type Page } from '@playwright/test';

/** The first playground on the page. */
export const firstPlayground = (page: Page): Locator => page.locator('[data-playground]').first();

/** Opens Monaco on a playground by clicking its listing (after a Run the editor may already be opening). */
export async function openEditor(root: Locator): Promise<void> {
  const listing = root.locator('[data-listing]');
  // The editor replaces the listing when it has loaded, so the click may find it gone: that is fine.
  if (await listing.isVisible()) await listing.click({ timeout: 5_000 }).catch(() => {});
  await expect(root.locator('.monaco-editor')).toBeVisible({ timeout: 30_000 });
}

/** Replaces the whole editor content (insertText avoids Monaco's auto-closing brackets). */
export async function setCode(page: Page, root: Locator, code: string): Promise<void> {
  await root.locator('.monaco-editor .view-lines').click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(code);
}
