#!/usr/bin/env node
// `npm run bench`: all-reduce of float32 payloads (4 KB..64 MB) at 2, 4, 8 ranks — ring, two-shot, auto,
// a postMessage-through-the-main-thread baseline and the memcpy limit, raw and through dist.allReduce on
// tensors — in Node worker_threads and in headless Chromium Web Workers; writes tests/bench/RESULTS.md.
// Then the page measurements tagged @bench in tests/e2e (`npm run bench:page`: memory over 100 runs), unless --no-page.
// Then wall time and peak memory of a playground run against world size (world-scale.mjs, --no-scale skips it).
// Flags: --quick (fewer sizes, short loops), --node-only, --browser-only, --no-write, --no-ddp, --no-sim; to rerun a few
// cases: --worlds=4 --sizes=4K,16M --methods=auto,ring (with --no-write: RESULTS.md keeps the full run);
// --budget=32M: bytes of work per measurement (default 128M). `tensor-fresh` (not in the default list) is
// dist.allReduce's old path, a new array per result, to compare with `tensor-auto` in one run; `copy-in` and
// `copy-in-out` are the floors of any path whose tensors live in private memory (see format-results.ts).
// Run latency on the built site (RANKS_DIST, default dist; with RANKS_DIST_BEFORE a second build side by side):
// --run-latency-only measures just that, --no-run-latency skips it.
import { Worker } from 'node:worker_threads';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, existsSync, rmSync } from 'node:fs';
import { tmpdir, cpus, totalmem, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import { runAllReduceBench } from './bench-driver.ts';
import { chromiumLaunchOptions } from '../e2e/chromium.ts';
import { formatResults } from './format-results.ts';
import { benchRunLatency, formatRunLatency } from './run-latency.ts';

const args = new Set(process.argv.slice(2));
const quick = args.has('--quick');
const here = fileURLToPath(new URL('.', import.meta.url));
const KB = 1024;
const MB = 1024 * KB;
const option = (name) =>
  process.argv
    .find((a) => a.startsWith(`--${name}=`))
    ?.slice(name.length + 3)
    .split(',');
const bytesOf = (s) =>
  Number(s.replace(/[KM]$/i, '')) * (/M$/i.test(s) ? MB : /K$/i.test(s) ? KB : 1);
const plan = {
  worlds: option('worlds')?.map(Number) ?? [2, 4, 8],
  sizes:
    option('sizes')?.map(bytesOf) ??
    (quick
      ? [4 * KB, 64 * KB, 1 * MB, 16 * MB]
      : [4 * KB, 16 * KB, 64 * KB, 256 * KB, 1 * MB, 4 * MB, 16 * MB, 64 * MB]),
  methods: option('methods') ?? [
    'ring',
    'two-shot',
    'auto',
    'auto-async',
    'postMessage',
    'tensor-auto',
    'tensor-ring',
    'copy-in',
    'copy-in-out',
  ],
  budgetBytes: option('budget') ? bytesOf(option('budget')[0]) : quick ? 32 * MB : 128 * MB,
};
const log = (line) => console.log(line);

async function benchNode() {
  return runAllReduceBench({
    ...plan,
    environment: 'node',
    log,
    spawn: () => {
      const w = new Worker(new URL('./node-bench-worker.ts', import.meta.url));
      return {
        post: (m, t) => w.postMessage(m, t),
        onMessage: (h) => w.on('message', h),
        terminate: () => void w.terminate(),
      };
    },
  });
}

async function benchChromium() {
  const dir = mkdtempSync(join(tmpdir(), 'ranks-bench-'));
  await build({
    entryPoints: {
      'bench-page': join(here, 'browser/bench-page.ts'),
      'bench-worker': join(here, 'browser/bench-worker.ts'),
    },
    bundle: true,
    format: 'esm',
    target: 'es2022',
    outdir: dir,
    logLevel: 'warning',
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  writeFileSync(
    join(dir, 'index.html'),
    '<!doctype html><meta charset="utf-8"><title>Ranks all-reduce bench</title><script type="module" src="./bench-page.js"></script>',
  );
  const port = 4480 + Math.floor(Math.random() * 15);
  const server = spawn(
    process.execPath,
    [join(here, '../e2e/static-server.mjs'), dir, String(port)],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise((resolve) => server.stdout.once('data', resolve));
  const browser = await chromium.launch(chromiumLaunchOptions());
  try {
    const page = await browser.newPage();
    page.on('console', (m) => {
      if (m.type() === 'error') console.error(`[chromium] ${m.text()}`);
      else if (m.text().startsWith('chromium ')) console.log(m.text());
    });
    page.on('pageerror', (e) => console.error(`[chromium] ${e.message}`));
    await page.goto(`http://127.0.0.1:${port}/index.html`);
    await page.waitForFunction(() => typeof window.runBench === 'function');
    const info = await page.evaluate(() => ({
      ua: navigator.userAgent,
      cores: navigator.hardwareConcurrency,
      isolated: crossOriginIsolated,
    }));
    log(`chromium: ${info.ua} — ${info.cores} cores, cross-origin isolated: ${info.isolated}`);
    page.setDefaultTimeout(0);
    const rows = await page.evaluate((p) => window.runBench(p), {
      ...plan,
      environment: 'chromium',
    });
    return { rows, userAgent: info.ua };
  } finally {
    await browser.close();
    server.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function benchDdp() {
  const file = new URL('./ddp-overlap.mjs', import.meta.url);
  if (!existsSync(file)) return null;
  try {
    const { benchDdpOverlap } = await import(file.href);
    const r = await benchDdpOverlap({ worldSize: 4, steps: quick ? 3 : 6 });
    log(
      `ddp-overlap: overlap ${r.overlapMs.toFixed(1)} ms/step vs after-backward ${r.afterBackwardMs.toFixed(1)} ms/step (×${r.ratio.toFixed(2)})`,
    );
    return r;
  } catch (err) {
    log(`ddp-overlap skipped: ${err instanceof Error ? err.message.split('\n')[0] : err}`);
    return null;
  }
}

async function benchSim() {
  try {
    const { benchSimOverhead, simOverheadLines } = await import(
      new URL('./sim-overhead.mjs', import.meta.url).href
    );
    const r = await benchSimOverhead({ pairs: quick ? 1 : 3, log });
    for (const line of simOverheadLines(r)) log(line);
    const { benchSimProfile, simProfileLine } = await import(
      new URL('./sim-profile.mjs', import.meta.url).href
    );
    r.profile = benchSimProfile();
    log(simProfileLine(r.profile));
    return r;
  } catch (err) {
    log(`sim-overhead skipped: ${err instanceof Error ? err.message.split('\n')[0] : err}`);
    return null;
  }
}

async function benchRun() {
  const dists = [
    ...(process.env.RANKS_DIST_BEFORE
      ? [{ label: 'before', dist: process.env.RANKS_DIST_BEFORE }]
      : []),
    {
      label: process.env.RANKS_DIST_BEFORE ? 'after' : 'this build',
      dist: process.env.RANKS_DIST ?? 'dist',
    },
  ];
  for (const { dist } of dists)
    if (!existsSync(join(dist, 'index.html')))
      throw new Error(`run latency needs a built site in ${dist}: npm run build first`);
  return benchRunLatency(dists, quick ? 1 : 3, log);
}

const started = Date.now();
const loadAtStart = loadavg()[0];
const latencyOnly = args.has('--run-latency-only');
const node = args.has('--browser-only') || latencyOnly ? [] : await benchNode();
const browser =
  args.has('--node-only') || latencyOnly ? { rows: [], userAgent: '' } : await benchChromium();
const ddp = args.has('--no-ddp') || latencyOnly ? null : await benchDdp();
const sim = args.has('--no-sim') || latencyOnly ? null : await benchSim();
const { benchWorldScale, formatWorldScale } = await import(
  new URL('./world-scale.mjs', import.meta.url).href
);
const scale =
  args.has('--no-scale') || latencyOnly
    ? []
    : benchWorldScale({ worlds: quick ? [1, 4, 16] : undefined, log });
const runLatency = args.has('--no-run-latency') || args.has('--node-only') ? [] : await benchRun();
const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GB RAM, Node ${process.version}${browser.userAgent ? `, ${browser.userAgent.match(/Chrome\/[\d.]+/)?.[0] ?? 'Chromium'}` : ''}; load average ${loadAtStart.toFixed(1)} at the start, ${loadavg()[0].toFixed(1)} at the end (other processes share the cores)`;
const markdown = formatResults({
  rows: [...node, ...browser.rows],
  machine,
  quick,
  ddp,
  sim,
  seconds: (Date.now() - started) / 1000,
});
const report = `${markdown}\n${formatWorldScale(scale)}\n${formatRunLatency(runLatency)}`;
console.log(`\n${report}`);
if (!args.has('--no-write') && !latencyOnly) {
  writeFileSync(new URL('./RESULTS.md', import.meta.url), report);
  console.log('wrote tests/bench/RESULTS.md');
}

if (!args.has('--no-page') && !args.has('--node-only') && !latencyOnly) {
  const page = spawnSync('npm', ['run', 'bench:page'], { stdio: 'inherit' });
  if (page.status !== 0) process.exitCode = page.status ?? 1;
}
