import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from './tests/e2e/chromium';

const port = Number(process.env.RANKS_E2E_PORT ?? 4399);
const outDir = process.env.RANKS_DIST ?? 'dist';
// Tests tagged @bench measure rather than gate (e.g. memory over 100 runs): `npm run bench:page` runs them, `npm test` does not.
const bench = Boolean(process.env.RANKS_BENCH);

export default defineConfig({
  testDir: 'tests/e2e',
  testMatch: '**/*.spec.ts',
  timeout: 90_000,
  expect: { timeout: 15_000 },
  // Two cores: one worker by default; `npm run test:e2e` gives the @pages project two (see projects).
  workers: 1,
  retries: 0,
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    launchOptions: chromiumLaunchOptions(),
    trace: 'off',
  },
  projects: bench
    ? [{ name: 'bench', grep: /@bench/, workers: 1 }]
    : [
        // @pages: the test starts no rank worker and times nothing (axe scans, page contents, widgets), so
        // `npm run test:e2e` runs this project alone on two workers, then the ranks project alone on one.
        // Two tests share the cores, so each may take twice as long as alone: twice the default time limit.
        {
          name: 'pages',
          grep: /@pages/,
          grepInvert: /@bench/,
          fullyParallel: true,
          timeout: 180_000,
        },
        // Everything else, one test at a time: rank workers of one test must not starve another's.
        { name: 'ranks', grepInvert: /@pages|@bench/, workers: 1 },
      ],
  webServer: {
    command: `node tests/e2e/static-server.mjs ${outDir} ${port}`,
    url: `http://127.0.0.1:${port}/`,
    reuseExistingServer: false,
    timeout: 30_000,
  },
});
