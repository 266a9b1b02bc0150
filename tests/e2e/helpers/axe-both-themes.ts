import { expect, type Page } from '@playwright/test';

export const THEMES = ['light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];

export interface AxeScan {
  /** Scan only this part of the page (a CSS selector); the whole page when absent. */
  include?: string;
  /** Run only these rules. */
  rules?: string[];
}

/** Scans the page as it is now; a failure names each rule with its first three targets. */
export async function expectAxeClean(page: Page, label: string, scan: AxeScan = {}): Promise<void> {
  // Imported on use: specs that never scan do not pay for loading axe.
  const { default: AxeBuilder } = await import('@axe-core/playwright');
  // Violations only: passing nodes are then summed up per rule, not each given a selector (the slow part of a
  // scan of a long chapter); violations keep every node (axe-core's resultTypes option, dequelabs/axe-core#568).
  // Legacy mode: one axe.run in the page (same-origin frames included) instead of runPartial in each frame plus
  // finishRun in a new blank page, which ships every node's partial result through the test runner. Measured on
  // the chapter 9 page (11k elements): the all-rules scan 18–25 s of page CPU instead of 28–32 s plus 3.3 s in
  // Node. What legacy mode cannot scan is a cross-origin frame, and the site has none: checked here.
  const foreign = page
    .frames()
    .map((f) => f.url())
    .filter((url) => url !== 'about:blank' && new URL(url).origin !== new URL(page.url()).origin);
  expect(foreign, `${label}: cross-origin frames, which a legacy-mode axe scan skips`).toEqual([]);
  let axe = new AxeBuilder({ page }).setLegacyMode(true).options({ resultTypes: ['violations'] });
  if (scan.include) axe = axe.include(scan.include);
  if (scan.rules) axe = axe.withRules(scan.rules);
  const results = await axe.analyze();
  expect(
    results.violations.map(
      (v) =>
        `${v.id}: ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(' '))
          .join(', ')}`,
    ),
    label,
  ).toEqual([]);
}

/**
 * In each theme (the reader's colour scheme emulated, which the site follows on load): opens each path,
 * lets `prepare` bring the page to the state under test, and expects a clean scan.
 */
export async function expectAxeCleanInBothThemes(
  page: Page,
  paths: readonly string[],
  {
    prepare,
    scan = () => ({}),
  }: { prepare?: () => Promise<void>; scan?: (theme: Theme) => AxeScan } = {},
): Promise<void> {
  for (const theme of THEMES) {
    await page.emulateMedia({ colorScheme: theme });
    for (const path of paths) {
      await page.goto(path);
      await prepare?.();
      await expectAxeClean(page, `${theme} ${path}`, scan(theme));
    }
  }
}

/** Switches the open page's theme in place, as the theme toggle does: for state a reload would lose. */
export async function setTheme(page: Page, theme: Theme): Promise<void> {
  await page.evaluate((t) => document.documentElement.setAttribute('data-theme', t), theme);
}

/** Scans the open page in place in the light, then the dark theme. */
export async function expectAxeCleanInBothThemesHere(
  page: Page,
  scan: AxeScan = {},
): Promise<void> {
  for (const theme of THEMES) {
    await setTheme(page, theme);
    await expectAxeClean(page, theme, scan);
  }
}
