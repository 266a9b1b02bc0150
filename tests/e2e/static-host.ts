import { spawn } from 'node:child_process';

/** How a static host serves the build: `headers-file` reads dist/_headers (Netlify, Cloudflare Pages); `plain` sends no custom headers (GitHub Pages). */
export type HostMode = 'headers-file' | 'plain';

export interface StaticHost {
  url: string;
  stop(): Promise<void>;
}

/** Starts tests/e2e/static-server.mjs for one test, on a free port the system picks (a new origin, so a fresh service worker). */
export async function startStaticHost(
  mode: HostMode,
  root = process.env.RANKS_DIST ?? 'dist',
): Promise<StaticHost> {
  const server = spawn(process.execPath, ['tests/e2e/static-server.mjs', root, '0', `--${mode}`], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    server.stdout.once('data', (line: Buffer) =>
      resolve(line.toString().match(/http:\/\/[\d.]+:\d+/)![0]),
    );
    server.once('exit', (code) => reject(new Error(`static server (${mode}) exited with ${code}`)));
  });
  return {
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        if (server.exitCode !== null || server.signalCode !== null) return resolve();
        server.once('exit', () => resolve());
        server.kill();
      }),
  };
}
