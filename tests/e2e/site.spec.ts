import { test, expect } from '@playwright/test';
import { gzipSync } from 'node:zlib';
import { chapterPaths, firstChapterPath } from './pages';
import { expectAxeCleanInBothThemes } from './helpers/axe-both-themes';

test('home page says what Ranks is and lists every chapter in order @pages', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.locator('main')).toContainText('Ranks is an interactive textbook');
  const links = page.locator('[data-chapter-list] li > a');
  const hrefs = await links.evaluateAll((as) =>
    as.map((a) => new URL((a as HTMLAnchorElement).href).pathname),
  );
  expect(hrefs).toEqual(chapterPaths());
});

test('chapter 1 renders KaTeX math, a table of contents that resolves, reading time and prev/next @pages', async ({
  page,
}) => {
  await page.goto(firstChapterPath);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(/data parallelism/i);
  const math = page.locator('.katex');
  expect(await math.count()).toBeGreaterThan(0);
  await expect(page.locator('.katex-display').first()).toBeVisible();
  // KaTeX fonts are bundled: the math font must actually load from this origin.
  const fontLoaded = await page.evaluate(async () => {
    await document.fonts.ready;
    return document.fonts.check('16px KaTeX_Main');
  });
  expect(fontLoaded).toBe(true);
  const tocLinks = page.locator('nav.toc a');
  expect(await tocLinks.count()).toBeGreaterThan(3);
  for (const href of await tocLinks.evaluateAll((as) => as.map((a) => a.getAttribute('href')!))) {
    await expect(page.locator(`[id="${href.slice(1)}"]`)).toHaveCount(1);
  }
  await expect(page.locator('[data-reading-time]')).toHaveText(/\d+ min read/);
  await expect(page.locator('h2 .heading-anchor').first()).toHaveAttribute('href', /^#/);
  await expect(page.getByRole('navigation', { name: 'Previous and next chapter' })).toBeVisible();
});

test('search finds a word from chapter 1 @pages', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('button', { name: /search/i }).click();
  const input = page.getByRole('searchbox');
  await expect(input).toBeFocused();
  await input.fill('banquet');
  const result = page.locator('ranks-site-search .results a').first();
  await expect(result).toHaveAttribute('href', new RegExp(firstChapterPath.replace(/\//g, '\\/')));
  await expect(page.locator('ranks-site-search .status')).toContainText('result');
  await page.keyboard.press('Escape');
  await expect(page.locator('ranks-site-search dialog')).not.toBeVisible();
});

test('the theme toggle persists across reloads and pages @pages', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto('/');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  const toggle = page.getByRole('button', { name: 'Dark theme' });
  await toggle.click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expect(toggle).toHaveAttribute('aria-pressed', 'true');
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.goto(firstChapterPath);
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  expect(bg).toBe('rgb(21, 23, 28)');
});

test('the theme follows the system when the reader has not chosen @pages', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto('/');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
});

test('every page is cross-origin isolated and makes no failed or third-party request @pages', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(300_000); // about 70 pages, each until its network is idle: 72 s in CI before, too near the 90 s default
  const origin = new URL(baseURL!).origin;
  // Same-origin pages reachable from the home page by links, crawled breadth-first; each is checked on the visit
  // that reads its links (one load per page), after the network is idle so a late request is still counted.
  const seen = new Set<string>(['/']);
  const queue = ['/'];
  while (queue.length > 0 && seen.size < 200) {
    const path = queue.shift()!;
    const problems: string[] = [];
    const onRequest = (r: { url(): string }) => {
      if (
        !r.url().startsWith(origin) &&
        !r.url().startsWith('data:') &&
        !r.url().startsWith('blob:')
      )
        problems.push(`third-party: ${r.url()}`);
    };
    const onFailed = (r: { url(): string; failure(): { errorText: string } | null }) =>
      problems.push(`failed: ${r.url()} ${r.failure()?.errorText}`);
    const onResponse = (r: { url(): string; status(): number }) => {
      if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`);
    };
    page.on('request', onRequest);
    page.on('requestfailed', onFailed);
    page.on('response', onResponse);
    const res = await page.goto(path, { waitUntil: 'networkidle' });
    expect(res?.status(), path).toBe(200);
    expect(await page.evaluate(() => crossOriginIsolated), path).toBe(true);
    expect(await page.title(), path).not.toMatch(/Ranks.*Ranks/);
    expect(await page.evaluate(() => typeof SharedArrayBuffer), path).toBe('function');
    page.off('request', onRequest);
    page.off('requestfailed', onFailed);
    page.off('response', onResponse);
    expect(problems, path).toEqual([]);
    // Download links (the PyTorch twins) are files, not pages; twins.spec.ts checks them byte for byte.
    const hrefs = await page.$$eval('a[href]:not([download])', (as) =>
      as.map((a) => (a as HTMLAnchorElement).href),
    );
    for (const href of hrefs) {
      const url = new URL(href);
      if (url.origin !== origin) continue;
      const p = url.pathname;
      if (/\.(ts|py|json|xml|txt|svg|png)$/.test(p) || seen.has(p)) continue;
      seen.add(p);
      queue.push(p);
    }
  }
  expect(seen.size).toBeGreaterThanOrEqual(chapterPaths().length + 1);
});

test('chapter pages ship under 20 KB of JavaScript (gzip) before interaction @pages', async ({
  page,
}) => {
  for (const path of chapterPaths()) {
    const scripts: Promise<number>[] = [];
    page.on('response', (r) => {
      if (r.request().resourceType() === 'script')
        scripts.push(r.body().then((b) => gzipSync(b).length));
    });
    await page.goto(path, { waitUntil: 'networkidle' });
    const inline = await page.$$eval('script:not([src])', (ss) =>
      ss.map((s) => s.textContent ?? '').join('\n'),
    );
    const total = (await Promise.all(scripts)).reduce((a, b) => a + b, 0) + gzipSync(inline).length;
    console.log(`${path}: ${(total / 1024).toFixed(1)} KB gzip of JavaScript`);
    expect(total, path).toBeLessThan(20 * 1024);
    page.removeAllListeners('response');
  }
});

// One test per page, so the two workers of the @pages project share the scans.
for (const path of [
  '/',
  ...chapterPaths(),
  '/lab/collectives/',
  '/lab/diagnostics/',
  '/lab/calibration/',
]) {
  test(`${path} passes an axe-core scan in light and dark themes @pages`, async ({ page }) => {
    test.setTimeout(180_000); // two scans of a long chapter on a loaded 2-core machine
    // The theme changes colours only: the dark pass runs the colour rules, the light pass every rule.
    await expectAxeCleanInBothThemes(page, [path], {
      scan: (theme) =>
        theme === 'dark' ? { rules: ['color-contrast', 'link-in-text-block'] } : {},
    });
  });
}

test('on a phone-sized screen no chapter has a horizontal scroll, and the skip link works @pages', async ({
  page,
}) => {
  await page.setViewportSize({ width: 375, height: 740 });
  for (const path of chapterPaths()) {
    await page.goto(path);
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow, path).toBeLessThanOrEqual(0);
  }
  await page.goto(firstChapterPath);
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await expect(skip).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.locator('main')).toBeFocused();
});

test('on a host that sends no isolation headers, the service-worker fallback makes the page isolated @pages', async ({
  page,
}) => {
  const { spawn } = await import('node:child_process');
  const port = Number(process.env.RANKS_E2E_PORT ?? 4399) + 1;
  const server = spawn(
    process.execPath,
    [
      'tests/e2e/static-server.mjs',
      process.env.RANKS_DIST ?? 'dist',
      String(port),
      '--no-isolation',
    ],
    { stdio: 'pipe' },
  );
  try {
    await new Promise<void>((resolve, reject) => {
      server.stdout.on('data', () => resolve());
      server.on('exit', (code) => reject(new Error(`static server exited with ${code}`)));
    });
    const first = await page.goto(`http://127.0.0.1:${port}/`);
    expect(first?.headers()['cross-origin-embedder-policy']).toBeUndefined();
    await page.waitForFunction(() => crossOriginIsolated === true, undefined, { timeout: 15_000 });
    expect(await page.evaluate(() => typeof SharedArrayBuffer)).toBe('function');
  } finally {
    server.kill();
  }
});
