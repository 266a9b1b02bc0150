// Run latency on the built site in Chromium: cold (first visit, Run pressed at once) and warm (the page idle
// ≥ 2 s since the last run) Run→first output line, Run→a line on every rank, Run→run finished, at 4 ranks on
// chapter 1's first playground; and the bytes (gzip) the page fetched before the first output line.
import { spawn } from 'node:child_process';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { chromiumLaunchOptions } from '../e2e/chromium.ts';
import { recordNetworkBytes } from '../e2e/helpers/network-bytes.ts';

export const RUN_LATENCY_PATH = '/chapters/what-is-data-parallelism/';
/** The issue's "warm": the page has been idle at least this long since load or since the last run. */
export const WARM_IDLE_MS = 2000;

export interface RunTiming {
  /** Click → the first log line in any rank pane. */
  firstMs: number;
  /** Click → every rank pane shows a log line. */
  everyRankMs: number;
  /** Click → the status says the run finished. */
  allMs: number;
}

export interface RunLatency {
  label: string;
  cold: RunTiming;
  warm: RunTiming;
  /** Network bytes (each response gzipped) requested from navigation to the cold run's first output line. */
  coldBytesGzip: number;
  coldRequests: number;
  /** URLs the page or its workers fetched over the network more than once before the cold run's first line. */
  coldDuplicates: string[];
  samples: number;
}

/** In the page: clicks Run on the first playground and times the pane updates against the click. */
function timeOneRun(): Promise<RunTiming & { firstEpoch: number }> {
  return new Promise((resolve, reject) => {
    const root = document.querySelector<HTMLElement>('[data-playground]')!;
    const status = root.querySelector('[data-status]')!;
    const t0 = performance.now();
    let firstMs = 0;
    let firstEpoch = 0;
    let everyRankMs = 0;
    const check = () => {
      const panes = [0, 1, 2, 3].map(
        (r) => (root.querySelector(`[data-rank="${r}"] pre`)?.textContent ?? '') !== '',
      );
      const now = performance.now() - t0;
      if (!firstMs && panes.some(Boolean)) {
        firstMs = now;
        firstEpoch = Date.now();
      }
      if (!everyRankMs && panes.every(Boolean)) everyRankMs = now;
      if (/Finished|Failed|Could not|Timed out/.test(status.textContent ?? '')) {
        observer.disconnect();
        if (!/Finished/.test(status.textContent ?? ''))
          reject(new Error(`the run did not finish: ${status.textContent}`));
        else resolve({ firstMs, everyRankMs, allMs: now, firstEpoch });
      }
    };
    const observer = new MutationObserver(check);
    observer.observe(root, { subtree: true, childList: true, characterData: true });
    root.querySelector<HTMLButtonElement>('[data-action="run"]')!.click();
  });
}

function startServer(dist: string): Promise<{ url: string; stop(): void }> {
  const server = spawn(process.execPath, ['tests/e2e/static-server.mjs', dist, '0'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    server.stdout!.once('data', (line: Buffer) =>
      resolve({
        url: line.toString().match(/http:\/\/[\d.]+:\d+/)![0],
        stop: () => void server.kill(),
      }),
    );
    server.once('exit', (code) => reject(new Error(`static server exited with ${code}`)));
  });
}

async function oneSample(
  browser: Browser,
  url: string,
): Promise<Omit<RunLatency, 'label' | 'samples'>> {
  const context: BrowserContext = await browser.newContext();
  const requests = recordNetworkBytes(context);
  try {
    const page = await context.newPage();
    await page.goto(url + RUN_LATENCY_PATH, { waitUntil: 'load' });
    const cold = await page.evaluate(timeOneRun);
    const before = requests.filter((r) => r.at <= cold.firstEpoch);
    const coldBytesGzip = (await Promise.all(before.map((r) => r.gzip))).reduce((a, b) => a + b, 0);
    // Twice over the network by the page or its workers (a service worker's copies for offline use excluded).
    const seen = new Map<string, number>();
    for (const r of before)
      if (!r.sw && (await r.gzip) > 0) seen.set(r.url, (seen.get(r.url) ?? 0) + 1);
    await page.waitForTimeout(WARM_IDLE_MS + 500);
    const warm = await page.evaluate(timeOneRun);
    const strip = ({ firstMs, everyRankMs, allMs }: RunTiming) => ({ firstMs, everyRankMs, allMs });
    return {
      cold: strip(cold),
      warm: strip(warm),
      coldBytesGzip,
      coldRequests: before.length,
      coldDuplicates: [...seen].filter(([, n]) => n > 1).map(([u]) => u.replace(url, '')),
    };
  } finally {
    await context.close();
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Measures each built site (label → dist folder) `samples` times, each sample in a fresh browser context. */
export async function benchRunLatency(
  dists: { label: string; dist: string }[],
  samples: number,
  log: (line: string) => void,
): Promise<RunLatency[]> {
  const browser = await chromium.launch(chromiumLaunchOptions());
  const results: RunLatency[] = [];
  try {
    for (const { label, dist } of dists) {
      const server = await startServer(dist);
      try {
        const runs: Awaited<ReturnType<typeof oneSample>>[] = [];
        for (let i = 0; i < samples; i++) {
          const s = await oneSample(browser, server.url);
          log(
            `run-latency ${label} #${i + 1}: cold first ${s.cold.firstMs.toFixed(0)} / every rank ${s.cold.everyRankMs.toFixed(0)} / all ${s.cold.allMs.toFixed(0)} ms, ${(s.coldBytesGzip / 1024).toFixed(0)} KB gzip in ${s.coldRequests} requests before the first line; warm first ${s.warm.firstMs.toFixed(0)} / every rank ${s.warm.everyRankMs.toFixed(0)} / all ${s.warm.allMs.toFixed(0)} ms`,
          );
          runs.push(s);
        }
        const pick = (f: (s: (typeof runs)[number]) => number) => median(runs.map(f));
        results.push({
          label,
          samples,
          cold: {
            firstMs: pick((s) => s.cold.firstMs),
            everyRankMs: pick((s) => s.cold.everyRankMs),
            allMs: pick((s) => s.cold.allMs),
          },
          warm: {
            firstMs: pick((s) => s.warm.firstMs),
            everyRankMs: pick((s) => s.warm.everyRankMs),
            allMs: pick((s) => s.warm.allMs),
          },
          coldBytesGzip: pick((s) => s.coldBytesGzip),
          coldRequests: pick((s) => s.coldRequests),
          coldDuplicates: [...new Set(runs.flatMap((s) => s.coldDuplicates))],
        });
      } finally {
        server.stop();
      }
    }
  } finally {
    await browser.close();
  }
  return results;
}

/** A Markdown table: one column per build, and the ratio of the last to the first when there are two. */
export function formatRunLatency(results: RunLatency[]): string {
  if (results.length === 0) return '';
  const ms = (x: number) => `${x.toFixed(0)} ms`;
  const rows: [string, (r: RunLatency) => number, (x: number) => string][] = [
    ['cold Run → first output line', (r) => r.cold.firstMs, ms],
    ['cold Run → a line on every rank', (r) => r.cold.everyRankMs, ms],
    ['cold Run → run finished', (r) => r.cold.allMs, ms],
    ['warm Run → first output line', (r) => r.warm.firstMs, ms],
    ['warm Run → a line on every rank', (r) => r.warm.everyRankMs, ms],
    ['warm Run → run finished', (r) => r.warm.allMs, ms],
    [
      'fetched before the first line (gzip)',
      (r) => r.coldBytesGzip,
      (b) => `${(b / 1024).toFixed(0)} KB`,
    ],
    ['requests before the first line', (r) => r.coldRequests, (n) => n.toFixed(0)],
  ];
  const ratio = results.length > 1;
  const head = `| at 4 ranks, chapter 1 | ${results.map((r) => r.label).join(' | ')} |${ratio ? ` ${results.at(-1)!.label} ÷ ${results[0]!.label} |` : ''}`;
  const sep = `|---|${results.map(() => '---:').join('|')}|${ratio ? '---:|' : ''}`;
  const body = rows.map(([name, get, fmt]) => {
    const cells = results.map((r) => fmt(get(r)));
    const q = ratio ? ` ${(get(results.at(-1)!) / get(results[0]!)).toFixed(2)}× |` : '';
    return `| ${name} | ${cells.join(' | ')} |${q}`;
  });
  const dups = results
    .filter((r) => r.coldDuplicates.length)
    .map(
      (r) => `- ${r.label}: fetched twice before the first line: ${r.coldDuplicates.join(', ')}`,
    );
  return [
    `## Run latency (Chromium, built site, medians of ${results[0]!.samples} samples)`,
    '',
    `Cold: a fresh browser context opens ${RUN_LATENCY_PATH} and presses Run once the page has loaded. Warm: the same page, idle ${WARM_IDLE_MS / 1000} s after that run, presses Run again. Times are from the click, read in the page.`,
    '',
    head,
    sep,
    ...body,
    ...(dups.length ? ['', ...dups] : []),
    '',
  ].join('\n');
}
