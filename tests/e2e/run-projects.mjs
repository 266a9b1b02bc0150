// `npm run e2e [playwright args…]`: the @pages project on two workers, then the ranks project alone, each with
// the same arguments (a spec file, -g, …), so a filter reaches both; fails if either fails. A filter that
// matches nothing in one project is fine there (--pass-with-no-tests), as long as the other ran it.
import { spawnSync } from 'node:child_process';

const args = process.argv.slice(2);
const run = (project, extra) =>
  spawnSync('npx', ['playwright', 'test', `--project=${project}`, ...extra, ...args], {
    stdio: 'inherit',
  }).status ?? 1;
const pages = run('pages', ['--workers=2', ...(args.length ? ['--pass-with-no-tests'] : [])]);
const ranks = run('ranks', args.length ? ['--pass-with-no-tests'] : []);
process.exit(pages || ranks);
