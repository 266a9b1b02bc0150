import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chooseChromium, systemChromiumPaths } from '../../e2e/chromium';

const only =
  (...paths: string[]) =>
  (path: string) =>
    paths.includes(path);

describe('which Chromium the e2e tests drive', () => {
  it("prefers Debian's Chromium, then the other usual locations", () => {
    expect(systemChromiumPaths[0]).toBe('/usr/bin/chromium');
    expect(chooseChromium({}, only('/usr/bin/chromium', '/usr/bin/google-chrome'))).toEqual({
      kind: 'system',
      executablePath: '/usr/bin/chromium',
    });
    expect(chooseChromium({}, only('/snap/bin/chromium'))).toEqual({
      kind: 'system',
      executablePath: '/snap/bin/chromium',
    });
  });

  it('uses CHROMIUM_PATH instead of the usual locations when it is set', () => {
    expect(
      chooseChromium(
        { CHROMIUM_PATH: '/opt/c/chrome' },
        only('/opt/c/chrome', '/usr/bin/chromium'),
      ),
    ).toEqual({ kind: 'system', executablePath: '/opt/c/chrome' });
  });

  it('falls back to the Chromium from npm when no system one is found, saying why', () => {
    expect(chooseChromium({}, only())).toEqual({
      kind: 'bundled',
      reason: `no system Chromium at ${systemChromiumPaths.join(', ')}`,
    });
    // CHROMIUM_PATH pointing nowhere hides the system browser: this is how a test proves the fallback.
    expect(chooseChromium({ CHROMIUM_PATH: '/nowhere' }, only('/usr/bin/chromium'))).toEqual({
      kind: 'bundled',
      reason: 'CHROMIUM_PATH=/nowhere does not exist',
    });
  });

  it('RANKS_CHROMIUM=system forbids the fallback and RANKS_CHROMIUM=bundled forces it', () => {
    expect(() => chooseChromium({ RANKS_CHROMIUM: 'system' }, only())).toThrow(
      /apt-get install -y chromium/,
    );
    expect(chooseChromium({ RANKS_CHROMIUM: 'bundled' }, only('/usr/bin/chromium'))).toEqual({
      kind: 'bundled',
      reason: 'RANKS_CHROMIUM=bundled',
    });
    expect(() => chooseChromium({ RANKS_CHROMIUM: 'firefox' }, only())).toThrow(
      /not one of auto, system, bundled/,
    );
  });
});

describe('npm install', () => {
  const pkg = JSON.parse(readFileSync('package.json', 'utf8'));

  it('keeps the Node 22 requirement of the scripts while npm itself may run on an older Node', () => {
    expect(pkg.engines.node).toBe('>=22.12.0');
    expect(pkg.devDependencies.node).toMatch(/^22\./);
    // EBADENGINE warnings under an older system Node are expected, so only errors are shown.
    expect(readFileSync('.npmrc', 'utf8')).toMatch(/^loglevel=error$/m);
  });

  it('names every installed package with an install script in allowScripts (the Node 22 binary arrives through one)', () => {
    const withScripts: string[] = [];
    const visit = (dir: string) => {
      for (const name of readdirSync(dir)) {
        if (name.startsWith('.')) continue;
        if (name.startsWith('@')) {
          visit(join(dir, name));
          continue;
        }
        const manifest = join(dir, name, 'package.json');
        if (!existsSync(manifest)) continue;
        const { name: pkgName, scripts = {} } = JSON.parse(readFileSync(manifest, 'utf8'));
        if (['preinstall', 'install', 'postinstall'].some((s) => s in scripts))
          withScripts.push(pkgName);
        if (existsSync(join(dir, name, 'node_modules'))) visit(join(dir, name, 'node_modules'));
      }
    };
    visit('node_modules');
    expect(withScripts.filter((name) => !(name in pkg.allowScripts)).sort()).toEqual([]);
    expect(pkg.allowScripts.node).toBe(true);
  });
});
