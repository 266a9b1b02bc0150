import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from './tests/e2e/chromium';

const port = Number(process.env.RANKS_E2E_PORT ?? 4399);
const outDir = process.env.RANKS_DIST ?? 'dist';

export default defineConfig({
  testDir: 'tests/e2e',
  testMatch: '**/*.spec.ts',
  // Tests tagged @bench measure rather than gate (e.g. memory over 100 runs): `npm run bench:page` runs them, `npm test` does not.
  ...(process.env.RANKS_BENCH ? { grep: /@bench/ } : { grepInvert: /@bench/ }),
  timeout: 90_000,
  expect: { timeout: 15_000 },
  // Two cores: one worker keeps rank workers of one test from starving another's.
  workers: 1,
  retries: 0,
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    launchOptions: chromiumLaunchOptions(),
    trace: 'off',
  },
  webServer: {
    command: `node tests/e2e/static-server.mjs ${outDir} ${port}`,
    url: `http://127.0.0.1:${port}/`,
    reuseExistingServer: false,
    timeout: 30_000,
  },
});
