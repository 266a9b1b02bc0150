import { chromium, expect, type Browser, type Page } from '@playwright/test';
import { chromiumLaunchOptions } from '../chromium';

export type RunEvent = {
  type: string;
  rank: number;
  backend?: string;
  reason?: string;
  text?: string;
  message?: string;
  line?: number;
};
export type DiagnosticsRun = {
  result: {
    ok: boolean;
    reason: string;
    error?: { message: string; line?: number };
    durationMs: number;
  };
  events: RunEvent[];
};

/** Runs `code` through the diagnostics page's element, in real Web Workers. */
export async function runInDiagnostics(
  page: Page,
  code: string,
  worldSize: number,
  backend = 'auto',
  timeoutMs = 60_000,
): Promise<DiagnosticsRun> {
  return page.evaluate(
    async ([code, worldSize, backend, timeoutMs]) => {
      const el = document.querySelector('ranks-diagnostics') as HTMLElement & {
        run(o: object): Promise<unknown>;
      };
      return el.run({ code, worldSize, backend, timeoutMs });
    },
    [code, worldSize, backend, timeoutMs] as const,
  ) as Promise<DiagnosticsRun>;
}

/** What one rank printed, in order. */
export const logsOf = (r: DiagnosticsRun, rank: number): string[] =>
  r.events.filter((e) => e.type === 'log' && e.rank === rank).map((e) => e.text!);

/** The backend each rank reported, in arrival order. */
export const backendsOf = (r: DiagnosticsRun): (string | undefined)[] =>
  r.events.filter((e) => e.type === 'backend').map((e) => e.backend);

/**
 * Runs `body` on the diagnostics page of a browser whose WebGPU adapter is SwiftShader (software
 * Vulkan), after checking the page sees WebGPU; the browser is closed however `body` ends.
 */
export async function withSoftwareWebGpu(
  baseURL: string | undefined,
  body: (page: Page) => Promise<void>,
): Promise<void> {
  const browser: Browser = await chromium.launch(
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
    await body(page);
  } finally {
    await browser.close();
  }
}
