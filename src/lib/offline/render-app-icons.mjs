// Renders the app icons in public/icons/ from their SVG sources: `node src/lib/offline/render-app-icons.mjs`.
// Maskable icons keep the mark inside the central 80% circle that launchers may crop to.
import { readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { chromiumLaunchOptions } from '../../../tests/e2e/chromium.ts';

const icons = [
  { svg: 'public/favicon.svg', out: 'public/icons/icon-192.png', size: 192 },
  { svg: 'public/favicon.svg', out: 'public/icons/icon-512.png', size: 512 },
  { svg: 'public/icons/icon-maskable.svg', out: 'public/icons/icon-maskable-192.png', size: 192 },
  { svg: 'public/icons/icon-maskable.svg', out: 'public/icons/icon-maskable-512.png', size: 512 },
  { svg: 'public/icons/icon-maskable.svg', out: 'public/icons/apple-touch-icon.png', size: 180 },
];

const browser = await chromium.launch(chromiumLaunchOptions());
try {
  for (const { svg, out, size } of icons) {
    const page = await browser.newPage({ viewport: { width: size, height: size } });
    const src = `data:image/svg+xml;base64,${readFileSync(svg).toString('base64')}`;
    await page.setContent(
      `<style>html,body{margin:0;background:transparent}</style><img src="${src}" width="${size}" height="${size}">`,
    );
    await page.locator('img').evaluate((img) => img.decode());
    await page.screenshot({ path: out, omitBackground: true });
    await page.close();
    console.log(`${out}: ${size}×${size}`);
  }
} finally {
  await browser.close();
}
