import { existsSync } from 'node:fs';
import type { LaunchOptions } from '@playwright/test';

/**
 * Debian's Chromium, with the flags this closed network needs (no background calls home).
 * Playwright's launch() already gives every browser a fresh, empty profile directory.
 */
export function chromiumLaunchOptions(extraArgs: string[] = []): LaunchOptions {
  const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(executablePath)) {
    throw new Error(`Chromium not found at ${executablePath}. Install it with: apt-get install -y chromium (or set CHROMIUM_PATH).`);
  }
  return {
    executablePath,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...extraArgs,
    ],
  };
}
