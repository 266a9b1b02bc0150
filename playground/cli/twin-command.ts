/**
 * `npm run ranks -- twin <playground.ts> [--helper]`: prints the PyTorch twin of a playground (content/twins/),
 * so a terminal user can take the same experiment to torchrun. Hints go to stderr, the code alone to stdout.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const TWINS = fileURLToPath(new URL('../../content/twins/', import.meta.url));
const HELPER = 'ranks_twin.py';
const USAGE =
  'usage: npm run ranks -- twin <playground.ts> [--helper]   (--helper prints the shared ranks_twin.py)';

/** Twin file names, e.g. "04-manual-ddp.py", without the shared helper. */
export function twinNames(): string[] {
  return readdirSync(TWINS)
    .filter((f) => f.endsWith('.py') && f !== HELPER)
    .sort();
}

/** The twin of a playground given by path or name ("…/04-manual-ddp.ts", "04-manual-ddp"); undefined if none. */
export function twinFileFor(playground: string): string | undefined {
  const name = `${basename(playground).replace(/\.(ts|py)$/, '')}.py`;
  return existsSync(join(TWINS, name)) && name !== HELPER ? join(TWINS, name) : undefined;
}

export function twinCommand(args: string[], out = process.stdout, err = process.stderr): number {
  const helper = args.includes('--helper');
  const rest = args.filter((a) => a !== '--helper');
  if (rest.length === 0 && helper) {
    out.write(readFileSync(join(TWINS, HELPER), 'utf8'));
    return 0;
  }
  if (rest.length !== 1 || rest[0]!.startsWith('--')) {
    err.write(`${USAGE}\n`);
    return 2;
  }
  const file = twinFileFor(rest[0]!);
  if (!file) {
    err.write(
      `no PyTorch twin for ${rest[0]}; twins exist for:\n${twinNames()
        .map((n) => `  ${n.replace(/\.py$/, '.ts')}`)
        .join('\n')}\n`,
    );
    return 2;
  }
  const name = basename(file);
  out.write(readFileSync(helper ? join(TWINS, HELPER) : file, 'utf8'));
  if (!helper) {
    err.write(
      `# Save as ${name} next to ${HELPER} (npm run ranks -- twin --helper > ${HELPER}), then:\n`,
    );
    err.write(`#   torchrun --nproc_per_node=4 ${name}\n`);
  }
  return 0;
}
