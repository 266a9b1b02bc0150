import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Folders of playground/ import downward only. The cluster model and virtual time (simulation) sit just
 * above the contract: collectives time their calls with it. The rank worker hosts the 'ranks' module,
 * which is the training API, so rank sits above parallel; the cluster starts ranks; the CLI drives the cluster.
 */
const LAYERS = [
  'contract',
  'simulation',
  'collectives',
  'parallel',
  'rank',
  'cluster',
  'cli',
] as const;

const root = process.cwd();
const playground = join(root, 'playground');

function sourceFiles(dir: string, pattern = /\.(ts|mts|mjs|js)$/): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path, pattern);
    return pattern.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Relative specifiers of every import, export-from and dynamic import (type-only ones too: a loop is a loop). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs: string[] = [];
  const re =
    /(?:^|[\s;])(?:import|export)\s[^'"`;]*?from\s*['"]([^'"]+)['"]|(?:^|[\s;])import\s*['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)|new URL\(\s*['"]([^'"]+)['"]\s*,\s*import\.meta\.url/g;
  for (const m of text.matchAll(re)) {
    const spec = m[1] ?? m[2] ?? m[3] ?? m[4];
    if (spec) specs.push(spec);
  }
  return specs;
}

/** playground/<folder>/… → folder; a file directly under playground/ is its own folder. */
const folderOf = (path: string): string => relative(playground, path).split(sep)[0]!;

interface Edge {
  from: string;
  to: string;
  file: string;
  spec: string;
}

function folderEdges(): Edge[] {
  const edges: Edge[] = [];
  for (const file of sourceFiles(playground)) {
    for (const spec of importsOf(file)) {
      if (!spec.startsWith('.')) {
        if (spec === 'astro' || spec.startsWith('astro:') || spec.startsWith('@astrojs/'))
          edges.push({ from: folderOf(file), to: 'astro', file, spec });
        continue;
      }
      const target = resolve(dirname(file), spec);
      const rel = relative(playground, target);
      const to = rel.startsWith('..') ? relative(root, target).split(sep)[0]! : folderOf(target);
      if (rel.startsWith('..')) edges.push({ from: folderOf(file), to: `../${to}`, file, spec });
      else if (to !== folderOf(file)) edges.push({ from: folderOf(file), to, file, spec });
    }
  }
  return edges;
}

/** Folder-level cycles: any strongly connected set of two or more folders. */
function cycles(edges: Edge[]): string[][] {
  const graph = new Map<string, Set<string>>();
  for (const e of edges) (graph.get(e.from) ?? graph.set(e.from, new Set()).get(e.from)!).add(e.to);
  const found: string[][] = [];
  const reach = (a: string, b: string, seen = new Set<string>()): boolean => {
    if (a === b) return true;
    if (seen.has(a)) return false;
    seen.add(a);
    return [...(graph.get(a) ?? [])].some((n) => reach(n, b, seen));
  };
  const nodes = [...graph.keys()];
  for (const a of nodes) {
    const group = nodes.filter((b) => reach(a, b) && reach(b, a)).sort();
    if (group.length > 1 && !found.some((g) => g.join() === group.join())) found.push(group);
  }
  return found;
}

const show = (e: Edge) => `${relative(root, e.file)} imports '${e.spec}' (${e.from} → ${e.to})`;

describe('import layers', () => {
  const edges = folderEdges();

  it('finds the imports it checks', () => {
    expect(edges.some((e) => e.from === 'collectives' && e.to === 'contract')).toBe(true);
    expect(edges.some((e) => e.from === 'cluster' && e.to === 'rank')).toBe(true);
    expect(edges.some((e) => e.from === 'collectives' && e.to === 'simulation')).toBe(true);
  });

  it(`playground folders import downward only: ${LAYERS.join(' ← ')}`, () => {
    const rank = (f: string) => LAYERS.indexOf(f as (typeof LAYERS)[number]);
    const upward = edges.filter(
      (e) => rank(e.from) >= 0 && rank(e.to) >= 0 && rank(e.to) > rank(e.from),
    );
    expect(upward.map(show)).toEqual([]);
  });

  it('collectives hold no virtual time: they reach simulation/ only through the clock interface', () => {
    // The clock interface and how a rank starts it; the reader's types `dist` re-exports; message text.
    const allowed = [
      'rank-clock.ts',
      'start-rank-clock.ts',
      'simulation-api.ts',
      'virtual-call-text.ts',
    ];
    const intoSimulation = edges.filter((e) => e.from === 'collectives' && e.to === 'simulation');
    expect(intoSimulation.length).toBeGreaterThan(0);
    const other = intoSimulation.filter((e) => !allowed.includes(e.spec.split('/').at(-1)!));
    expect(other.map(show)).toEqual([]);
    // The process group times every call through the one clock, never asking whether the run is simulated.
    const group = readFileSync(join(playground, 'collectives', 'process-group.ts'), 'utf8');
    expect(group).toMatch(/engine\.clock\.issueCall\(\)/);
    expect(group).not.toMatch(/\bsim\b|\bissued\b|WeakMap/);
    // The reader's Work is declared once, and the call's Work carries its virtual end (no side table).
    const collectives = sourceFiles(join(playground, 'collectives'));
    const declaresWork = collectives.filter((f) =>
      /\b(?:interface|type)\s+Work\b/.test(readFileSync(f, 'utf8')),
    );
    expect(declaresWork.map((f) => relative(root, f))).toEqual([
      join('playground', 'collectives', 'dist-api.ts'),
    ]);
    const endTables = collectives.filter((f) =>
      /WeakMap<[^>]*(?:PendingEnd|Promise)/.test(readFileSync(f, 'utf8')),
    );
    expect(endTables.map((f) => relative(root, f))).toEqual([]);
  });

  it('no folder-level import cycle anywhere in playground/ (new folders included)', () => {
    expect(cycles(edges)).toEqual([]);
  });

  it('the runtime never imports the site, the book or Astro', () => {
    const outward = edges.filter((e) => e.to.startsWith('../') || e.to === 'astro');
    // The one exception is data, not code: `npm run ranks -- twin` prints a twin's Python text from content/twins/.
    const readsTwinText = (e: Edge) =>
      e.file.endsWith(join('cli', 'twin-command.ts')) && e.spec === '../../content/twins/';
    expect(
      outward.filter((e) => e.to !== '../node_modules' && !readsTwinText(e)).map(show),
    ).toEqual([]);
  });

  it('the site reaches the runtime through its public faces only: the contract, the cluster, the rank module', () => {
    const publicFaces = [
      'playground/contract/protocol.ts',
      'playground/cluster/protocol.ts',
      'playground/cluster/browser.ts',
      'playground/rank/ranks-module.ts',
      // The cluster model is pure arithmetic, and the book's time figures must come from it (issue 14).
      'playground/simulation/index.ts',
    ];
    const siteFiles = sourceFiles(join(root, 'src'), /\.(ts|mjs|astro)$/);
    // Astro files may leave out the extension.
    const reached = siteFiles.flatMap((file) =>
      importsOf(file)
        .filter((s) => s.startsWith('.'))
        .map((spec) => ({
          file,
          target: relative(root, resolve(dirname(file), spec))
            .split(sep)
            .join('/')
            .replace(/(?<!\.ts)$/, '.ts')
            .replace(/\.(mjs|astro)\.ts$/, '.$1'),
        })),
    );
    expect(reached.some(({ target }) => target === 'playground/cluster/browser.ts')).toBe(true);
    const internal = reached.filter(
      ({ target }) => target.startsWith('playground/') && !publicFaces.includes(target),
    );
    expect(internal.map(({ file, target }) => `${relative(root, file)} → ${target}`)).toEqual([]);
  });
});
