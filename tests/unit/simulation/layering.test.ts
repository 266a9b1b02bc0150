import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const dir = join(process.cwd(), 'playground', 'simulation');
const sources = readdirSync(dir).filter((f) => f.endsWith('.ts'));

describe('playground/simulation is the lowest layer above the contract', () => {
  it.each(sources)(
    '%s imports only its own folder (and the contract) and uses no tfjs, DOM or Node API',
    (file) => {
      const text = readFileSync(join(dir, file), 'utf8');
      const specifiers = [...text.matchAll(/\bfrom\s+'([^']+)'|\bimport\s*\(\s*'([^']+)'/g)].map(
        (m) => m[1] ?? m[2],
      );
      for (const s of specifiers)
        expect(s, file).toMatch(/^\.\/[\w-]+\.ts$|^\.\.\/contract\/protocol\.ts$/);
      expect(text, file).not.toMatch(/\b(window|document|globalThis\.process|process\.|require\()/);
    },
  );
});
