// Runs npm scripts at the same time (CI has 2 cores; Prettier, ESLint and the build each keep about one busy);
// prints each script's output whole when it ends, so logs do not interleave; fails if any script fails.
// Usage: node .ci/parallel.mjs format:check lint build
import { spawn } from 'node:child_process';

const scripts = process.argv.slice(2);
if (scripts.length === 0) {
  console.error('usage: node .ci/parallel.mjs <npm script>...');
  process.exit(2);
}
const started = performance.now();
const results = await Promise.all(
  scripts.map(
    (name) =>
      new Promise((resolve) => {
        const child = spawn('npm', ['run', name], {
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        const chunks = [];
        child.stdout.on('data', (d) => chunks.push(d));
        child.stderr.on('data', (d) => chunks.push(d));
        child.on('close', (code, signal) => {
          const seconds = ((performance.now() - started) / 1000).toFixed(1);
          process.stdout.write(
            `\n> npm run ${name} (${code === 0 ? 'ok' : `failed: ${signal ?? code}`}, ${seconds} s)\n`,
          );
          process.stdout.write(Buffer.concat(chunks));
          resolve(code === 0);
        });
      }),
  ),
);
process.exit(results.every(Boolean) ? 0 : 1);
