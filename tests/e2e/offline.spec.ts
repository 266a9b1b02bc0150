import { test, expect, chromium, type BrowserContext, type Page } from '@playwright/test';
import { chromiumLaunchOptions } from './chromium';
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { firstChapterPath } from './pages';
import { firstPlayground as pg } from './editor';
import { startStaticHost, type HostMode } from './static-host';
import { contentSecurityPolicy } from '../../src/lib/site/host-headers.mjs';
import { expectEveryRank, runAndWait } from './helpers/run-and-wait';

const dist = process.env.RANKS_DIST ?? 'dist';
const buildId = (root: string) =>
  readFileSync(join(root, 'isolation-sw.js'), 'utf8').match(/"id":"([0-9a-f]+)"/)![1]!;

/** Waits until the service worker controls the page and holds the page and every file it loaded. */
async function savedForOffline(page: Page) {
  await expect
    .poll(
      () =>
        page.evaluate(async () => {
          if (!navigator.serviceWorker.controller) return 'not controlled yet';
          const name = (await caches.keys()).find((n) => n.startsWith('ranks-'));
          if (!name) return 'no cache yet';
          const saved = new Set((await (await caches.open(name)).keys()).map((r) => r.url));
          const loaded = performance
            .getEntriesByType('resource')
            .map((e) => e.name)
            .filter((u) => u.startsWith(location.origin));
          return [location.href, ...loaded].filter((u) => !saved.has(u.split(/[?#]/)[0]!));
        }),
      { timeout: 30_000 },
    )
    .toEqual([]);
}

/** Opens the editor (Monaco) and runs chapter 1's playground on 4 rank workers over one SharedArrayBuffer. */
async function runChapterOnePlayground(page: Page) {
  const root = pg(page);
  await root.locator('[data-listing]').click();
  await expect(root.locator('.monaco-editor')).toBeVisible({ timeout: 30_000 });
  await runAndWait(root);
  await expectEveryRank(root, 4, 'matches the full-batch gradient: true');
}

async function goOffline(context: BrowserContext, stopHost: () => Promise<void>) {
  await context.setOffline(true);
  await stopHost(); // and the host itself is gone, so nothing can come from the network
}

const hosts: [HostMode, string][] = [
  ['headers-file', 'a host that reads _headers'],
  ['plain', 'a plain host with no custom headers'],
];

for (const [mode, label] of hosts) {
  test(`on ${label}: isolated, the playground runs, then offline the chapter reads, searches and runs again`, async ({
    browser,
  }) => {
    test.setTimeout(180_000);
    const host = await startStaticHost(mode);
    const context = await browser.newContext({ baseURL: host.url });
    try {
      const page = await context.newPage();
      const first = await page.goto(firstChapterPath);
      if (mode === 'headers-file') {
        // The headers come from dist/_headers: isolated at once, no service-worker reload.
        expect(first?.headers()['cross-origin-embedder-policy']).toBe('require-corp');
        expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
      } else {
        expect(first?.headers()['cross-origin-embedder-policy']).toBeUndefined();
        await page.waitForFunction(() => crossOriginIsolated === true, undefined, {
          timeout: 30_000,
        });
      }
      await savedForOffline(page);
      // Either way the page's files carry the site's CSP: from _headers, or added by the service worker.
      expect(
        await page.evaluate(async () =>
          (await fetch(location.href)).headers.get('content-security-policy'),
        ),
      ).toBe(contentSecurityPolicy);
      await runChapterOnePlayground(page);

      await goOffline(context, host.stop);
      await page.reload();
      expect(
        await page.evaluate(() => crossOriginIsolated && typeof SharedArrayBuffer === 'function'),
      ).toBe(true);
      await expect(page.getByRole('heading', { level: 1 })).toContainText(/data parallelism/i);
      await expect(page.locator('.katex-display').first()).toBeVisible();
      expect(
        await page.evaluate(async () => {
          await document.fonts.ready;
          return document.fonts.check('16px KaTeX_Main');
        }),
      ).toBe(true);

      await page.getByRole('button', { name: /search/i }).click();
      await page.getByRole('searchbox').fill('banquet');
      await expect(page.locator('ranks-site-search .results a').first()).toHaveAttribute(
        'href',
        new RegExp(firstChapterPath),
      );
      await page.keyboard.press('Escape');

      await runChapterOnePlayground(page);

      // A chapter never opened has no saved copy: a page that says so and links what can be read, not a browser error.
      const unseen = await page.goto('/chapters/fsdp-and-choosing/');
      expect(unseen?.status()).toBe(503);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('You are offline');
      await page.getByRole('link', { name: firstChapterPath }).click();
      await expect(page.getByRole('heading', { level: 1 })).toContainText(/data parallelism/i);
    } finally {
      await context.close();
      await host.stop();
    }
  });
}

test('a new deploy reaches a returning reader on the next online visit, and the old build’s cache is dropped', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const root = mkdtempSync(join(tmpdir(), 'ranks-deploy-'));
  cpSync(dist, root, { recursive: true });
  const oldId = buildId(root);
  const host = await startStaticHost('headers-file', root);
  const context = await browser.newContext({ baseURL: host.url });
  try {
    const page = await context.newPage();
    await page.goto(firstChapterPath);
    await savedForOffline(page);
    expect(await page.evaluate(() => caches.keys())).toEqual([`ranks-${oldId}`]);

    // Deploy a new build: the chapter changes, and so does the worker's build id.
    const chapter = join(root, 'chapters/what-is-data-parallelism/index.html');
    writeFileSync(
      chapter,
      readFileSync(chapter, 'utf8').replace(/<\/h1>/, ' (second edition)</h1>'),
    );
    const newId = 'f'.repeat(16);
    const worker = join(root, 'isolation-sw.js');
    // A deploy's worker also lists the new page's digest (the worker serves only what the build wrote).
    const digest = (text: string) => createHash('sha256').update(text).digest('base64');
    const pagePath = '"/chapters/what-is-data-parallelism/index.html":"';
    const stamped = readFileSync(worker, 'utf8');
    const oldDigest = stamped.split(pagePath)[1]!.split('"')[0]!;
    writeFileSync(
      worker,
      stamped
        .replace(oldId, newId)
        .replace(
          `${pagePath}${oldDigest}"`,
          `${pagePath}${digest(readFileSync(chapter, 'utf8'))}"`,
        ),
    );

    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toContainText('second edition');
    await expect
      .poll(() => page.evaluate(() => caches.keys()), { timeout: 30_000 })
      .toEqual([`ranks-${newId}`]);
    await savedForOffline(page);

    await goOffline(context, host.stop);
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toContainText('second edition');
  } finally {
    await context.close();
    await host.stop();
    rmSync(root, { recursive: true, force: true });
  }
});

test('a poisoned cache entry is refused, not run (issue 34, item 1): the worker checks every cached file against the build’s digests', async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const host = await startStaticHost('headers-file');
  const context = await browser.newContext({ baseURL: host.url });
  try {
    const page = await context.newPage();
    await page.goto(firstChapterPath);
    await savedForOffline(page);
    // What the red team did from a rank (which can no longer reach Cache Storage at all): overwrite every cached
    // script, served cache-first, with one that leaves a mark.
    const poisoned = await page.evaluate(async () => {
      const cache = await caches.open((await caches.keys()).find((n) => n.startsWith('ranks-'))!);
      const scripts = (await cache.keys()).filter((r) => /\/_astro\/.*\.js$/.test(r.url));
      for (const r of scripts)
        await cache.put(
          r,
          new Response("localStorage.setItem('poisoned', location.pathname);", {
            headers: { 'Content-Type': 'text/javascript' },
          }),
        );
      return scripts.map((r) => r.url);
    });
    expect(poisoned.length).toBeGreaterThan(0);
    await page.reload();
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('poisoned'))).toBeNull();
    // The genuine files took their place.
    const first = await page.evaluate(
      async (url) => (await caches.match(url))?.text(),
      poisoned[0]!,
    );
    expect(first).not.toContain('poisoned');
  } finally {
    await context.close();
    await host.stop();
  }
});

test('Chromium finds the book installable: manifest, icons, service worker and theme colours', async ({
  baseURL,
}) => {
  // Playwright's contexts are incognito, where Chromium never offers installation: use a real profile.
  const profile = mkdtempSync(join(tmpdir(), 'ranks-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    ...chromiumLaunchOptions(),
    baseURL,
  });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto('/');
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, {
      timeout: 30_000,
    });
    const cdp = await page.context().newCDPSession(page);
    const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
    expect(installabilityErrors).toEqual([]);
    const { errors, data } = await cdp.send('Page.getAppManifest');
    expect(errors).toEqual([]);
    const manifest = JSON.parse(data!) as {
      start_url: string;
      display: string;
      short_name: string;
      icons: { src: string; sizes: string; type: string; purpose: string }[];
    };
    expect(manifest).toMatchObject({ start_url: '/', display: 'standalone', short_name: 'Ranks' });
    const pngs = manifest.icons.filter((i) => i.type === 'image/png');
    expect(pngs.map((i) => `${i.sizes} ${i.purpose}`).sort()).toEqual([
      '192x192 any',
      '192x192 maskable',
      '512x512 any',
      '512x512 maskable',
    ]);
    for (const icon of pngs) {
      const size = await page.evaluate(async (src) => {
        const bitmap = await createImageBitmap(await (await fetch(src)).blob());
        return `${bitmap.width}x${bitmap.height}`;
      }, icon.src);
      expect(size, icon.src).toBe(icon.sizes);
    }
    // The title bar takes the page's own background in each colour scheme.
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.reload();
      const [meta, body] = await page.evaluate(() => {
        const content = [
          ...document.querySelectorAll<HTMLMetaElement>('meta[name="theme-color"]'),
        ].find((m) => matchMedia(m.media).matches)!.content;
        const probe = document.createElement('div');
        probe.style.color = content;
        document.body.append(probe);
        const rgb = getComputedStyle(probe).color;
        probe.remove();
        return [rgb, getComputedStyle(document.body).backgroundColor];
      });
      expect(meta, scheme).toBe(body);
    }
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
});
