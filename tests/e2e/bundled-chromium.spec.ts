import { test, expect, chromium } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { chromiumLaunchOptions } from './chromium';
import { firstChapterPath } from './pages';
import { expectEveryRank, runAndWait } from './helpers/run-and-wait';

// Whatever browser the rest of the suite uses, prove on every run that the Chromium npm installed works:
// a machine with no system Chromium runs `npm test` on it.
test('the Chromium from npm runs a playground: 4 rank workers over one SharedArrayBuffer, cross-origin isolated', async ({
  baseURL,
}) => {
  test.skip(
    process.platform !== 'linux' || process.arch !== 'x64',
    '@sparticuz/chromium ships a Linux x64 binary only',
  );
  test.setTimeout(120_000); // the first run unpacks the browser (a few seconds)
  const pkg = join(
    dirname(createRequire(import.meta.url).resolve('@sparticuz/chromium')),
    '..',
    'package.json',
  );
  const major = (JSON.parse(readFileSync(pkg, 'utf8')) as { version: string }).version.split(
    '.',
  )[0];
  const browser = await chromium.launch(
    chromiumLaunchOptions([], { ...process.env, RANKS_CHROMIUM: 'bundled' }),
  );
  try {
    expect(browser.version().split('.')[0]).toBe(major);
    const page = await browser.newPage({ baseURL });
    await page.goto(firstChapterPath);
    expect(
      await page.evaluate(() => crossOriginIsolated && typeof SharedArrayBuffer === 'function'),
    ).toBe(true);
    const root = page.locator('[data-playground]').first();
    await runAndWait(root);
    await expectEveryRank(root, 4, 'matches the full-batch gradient: true');
  } finally {
    await browser.close();
  }
});
