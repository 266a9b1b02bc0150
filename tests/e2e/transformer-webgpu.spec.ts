import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, expect, chromium } from '@playwright/test';
import { chromiumLaunchOptions } from './chromium';

/** Chapter 1's transformer demo, cut to a few steps: SwiftShader runs WebGPU on the CPU, slowly. */
const STEPS = 2;
const program = readFileSync(
  join(process.cwd(), 'content', 'chapters', 'playgrounds', '01-char-transformer.ts'),
  'utf8',
).replace(/\bsteps = \d+;/, `steps = ${STEPS};`);

test('WebGPU: the transformer demo trains under DDP and FSDP on 4 ranks and matches one device', async ({
  baseURL,
}) => {
  test.setTimeout(600_000);
  expect(program).toContain(`steps = ${STEPS};`);
  const browser = await chromium.launch(
    chromiumLaunchOptions([
      '--enable-unsafe-webgpu',
      '--enable-features=Vulkan',
      '--use-angle=swiftshader',
      '--use-webgpu-adapter=swiftshader',
    ]),
  );
  try {
    const page = await browser.newPage();
    await page.goto(`${baseURL}/lab/diagnostics/`);
    await expect(page.locator('[data-fact="webgpu"]')).toHaveText('available');
    const started = Date.now();
    const r = (await page.evaluate(async (code) => {
      const el = document.querySelector('ranks-diagnostics') as HTMLElement & {
        run(o: object): Promise<unknown>;
      };
      return el.run({ code, worldSize: 4, backend: 'webgpu', timeoutMs: 540_000 });
    }, program)) as {
      result: { ok: boolean; reason: string };
      events: { type: string; rank: number; backend?: string; text?: string; message?: string }[];
    };
    const logs = (rank: number) =>
      r.events.filter((e) => e.type === 'log' && e.rank === rank).map((e) => e.text!);
    expect(r.result.ok, JSON.stringify(r.events.filter((e) => e.type === 'error'))).toBe(true);
    expect(r.events.filter((e) => e.type === 'backend').map((e) => e.backend)).toEqual(
      Array(4).fill('webgpu'),
    );
    for (let rank = 0; rank < 4; rank++) {
      expect(logs(rank)).toContain('DDP on 4 ranks matches one device (tolerance 1e-4): true');
      expect(logs(rank)).toContain('FSDP on 4 ranks matches one device (tolerance 1e-4): true');
    }
    const timing = logs(0).find((l) => l.includes('per step:'))!;
    expect(timing).toMatch(/\(webgpu\)$/);
    test.info().annotations.push({
      type: 'timing',
      description: `${timing}; whole run ${((Date.now() - started) / 1000).toFixed(0)} s`,
    });
    console.log(
      `[webgpu transformer] ${timing}; whole run ${((Date.now() - started) / 1000).toFixed(0)} s`,
    );
  } finally {
    await browser.close();
  }
});
