import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import type { LaunchOptions } from '@playwright/test';

/** Where a system Chromium usually lives, Debian's first. */
export const systemChromiumPaths = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome-stable',
  '/usr/bin/google-chrome',
  '/snap/bin/chromium',
];

/** RANKS_CHROMIUM: `auto` (default) prefers a system Chromium and falls back to the one npm installed. */
export const browserPolicies = ['auto', 'system', 'bundled'] as const;
export type BrowserPolicy = (typeof browserPolicies)[number];

export type ChromiumChoice =
  { kind: 'system'; executablePath: string } | { kind: 'bundled'; reason: string };

type Env = Record<string, string | undefined>;

/** Decides which Chromium to drive from the environment alone (what exists is passed in, for the unit test). */
export function chooseChromium(
  env: Env,
  exists: (path: string) => boolean = existsSync,
): ChromiumChoice {
  const policy = (env.RANKS_CHROMIUM || 'auto') as BrowserPolicy;
  if (!browserPolicies.includes(policy)) {
    throw new Error(
      `RANKS_CHROMIUM=${env.RANKS_CHROMIUM} is not one of ${browserPolicies.join(', ')}.`,
    );
  }
  if (policy === 'bundled') return { kind: 'bundled', reason: 'RANKS_CHROMIUM=bundled' };
  // An explicit CHROMIUM_PATH replaces the usual locations, so pointing it nowhere hides the system browser.
  const candidates = env.CHROMIUM_PATH ? [env.CHROMIUM_PATH] : systemChromiumPaths;
  const found = candidates.find((path) => exists(path));
  if (found) return { kind: 'system', executablePath: found };
  const missing = env.CHROMIUM_PATH
    ? `CHROMIUM_PATH=${env.CHROMIUM_PATH} does not exist`
    : `no system Chromium at ${candidates.join(', ')}`;
  if (policy === 'system') {
    throw new Error(
      `${missing}. Install one (Debian: apt-get install -y chromium), set CHROMIUM_PATH, or unset RANKS_CHROMIUM=system to use the Chromium that npm installed.`,
    );
  }
  return { kind: 'bundled', reason: missing };
}

interface BundledChromium {
  executablePath: string;
  dir: string;
  version: string;
}

/**
 * Unpacks @sparticuz/chromium (the binary ships brotli-compressed inside the npm package) once per version
 * into node_modules/.cache; at test time, because npm may not run install scripts. Synchronous, because
 * Playwright reads launch options while it loads its config.
 */
export function unpackBundledChromium(): BundledChromium {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(
      `The Chromium from npm (@sparticuz/chromium) runs on Linux x64 only, not ${process.platform}/${process.arch}: install Chromium and set CHROMIUM_PATH.`,
    );
  }
  let entry: string;
  try {
    entry = createRequire(import.meta.url).resolve('@sparticuz/chromium');
  } catch {
    throw new Error(
      '@sparticuz/chromium is not installed: run npm install (or install Chromium and set CHROMIUM_PATH).',
    );
  }
  const pkgDir = join(dirname(entry), '..');
  const version = (
    JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')) as { version: string }
  ).version;
  const dir = join(pkgDir, '..', '..', '.cache', 'ranks-chromium', version);
  const executablePath = join(dir, 'chromium');
  if (existsSync(executablePath)) return { executablePath, dir, version };

  const bin = join(pkgDir, 'bin');
  const partial = `${dir}.partial-${process.pid}`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  writeFileSync(
    join(partial, 'chromium'),
    brotliDecompressSync(readFileSync(join(bin, 'chromium.br'))),
    { mode: 0o755 },
  );
  // lib/ holds NSS and expat (the only libraries it needs beyond glibc); libEGL/libGLESv2 must sit beside the binary.
  for (const archive of ['al2023.tar.br', 'swiftshader.tar.br', 'fonts.tar.br']) {
    const tar = spawnSync('tar', ['-x', '--no-same-owner', '-C', partial], {
      input: brotliDecompressSync(readFileSync(join(bin, archive))),
    });
    if (tar.status !== 0)
      throw new Error(
        `Unpacking ${archive} of @sparticuz/chromium failed: ${tar.error?.message ?? tar.stderr.toString()}`,
      );
  }
  // The package's fonts.conf names /tmp/fonts (its Lambda layout); point fontconfig at this folder instead.
  writeFileSync(
    join(partial, 'fonts.conf'),
    `<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig>
  <dir>${join(dir, 'fonts')}</dir>
  <dir>/usr/share/fonts</dir>
  <cachedir>${join(dir, 'fonts-cache')}</cachedir>
</fontconfig>
`,
  );
  try {
    renameSync(partial, dir);
  } catch (error) {
    // Another process unpacked the same version first: use its copy.
    rmSync(partial, { recursive: true, force: true });
    if (!existsSync(executablePath)) throw error;
  }
  return { executablePath, dir, version };
}

/** Flags for this closed network (no background calls home); Playwright gives every launch a fresh profile. */
const baseArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const announced = new Set<string>();

/** Says once per run which browser the tests drive (not again in each Playwright worker). */
function announce(line: string) {
  if (announced.has(line) || process.env.TEST_WORKER_INDEX !== undefined) return;
  announced.add(line);
  console.log(line);
}

/**
 * Launch options for the Chromium the e2e tests and the bench drive: a system Chromium where there is one
 * (CHROMIUM_PATH, else the usual paths), else the one that came with npm install. RANKS_CHROMIUM=system
 * forbids the fallback, RANKS_CHROMIUM=bundled forces it.
 */
export function chromiumLaunchOptions(
  extraArgs: string[] = [],
  env: Env = process.env,
): LaunchOptions {
  const choice = chooseChromium(env);
  const args = [...baseArgs, ...extraArgs];
  if (choice.kind === 'system') {
    announce(`Browser: system Chromium at ${choice.executablePath}`);
    return { executablePath: choice.executablePath, args };
  }
  const bundled = unpackBundledChromium();
  announce(
    `Browser: Chromium from npm, @sparticuz/chromium ${bundled.version} (unpacked in ${relative(process.cwd(), bundled.dir)}), because ${choice.reason}`,
  );
  const browserEnv: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env))
    if (value !== undefined) browserEnv[key] = value;
  browserEnv.LD_LIBRARY_PATH = [join(bundled.dir, 'lib'), process.env.LD_LIBRARY_PATH]
    .filter(Boolean)
    .join(':');
  browserEnv.FONTCONFIG_PATH = bundled.dir;
  // Not the package's own defaults: --single-process and --disable-web-security would break workers and isolation.
  return { executablePath: bundled.executablePath, args, env: browserEnv };
}
