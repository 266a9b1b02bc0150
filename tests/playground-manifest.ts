/**
 * The one list of playgrounds every test reads, derived from the files and the MDX embeds: a new program in
 * content/chapters/playgrounds/ or a new `<Playground … />` in a chapter needs no registration here. Only a
 * program that no page embeds must say below what it prints.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { LAB_PLAYGROUNDS } from '../src/lib/playground/lab-playgrounds.ts';
import type { SimulatedClusterOptions } from '../playground/contract/protocol.ts';
import { clusterPreset } from '../playground/simulation/presets.ts';

const contentDir = () => process.env.RANKS_CONTENT_DIR ?? join(process.cwd(), 'content');
const chaptersDir = () => join(contentDir(), 'chapters');

export interface PlaygroundEntry {
  /** File name in content/chapters/playgrounds/. */
  src: string;
  /** Where it appears: a chapter file, 'lab' (the collectives lab page), or null when no page embeds it. */
  page: string | null;
  /** Default number of ranks. */
  world: number;
  /** Lines every rank must print (or only `onlyRank`, for a program that reports on one rank). */
  expect: string[];
  onlyRank?: number;
  /** The simulated cluster the page preselects (its `cluster`, `nodes`, `gpusPerNode`, `slowdown`); absent: real time. */
  cluster?: SimulatedClusterOptions;
}

/** Programs no page embeds, with what they print on 4 ranks (a test runs them like the embedded ones). */
export const NOT_EMBEDDED: Record<string, { world: number; expect: string[]; onlyRank?: number }> =
  {
    '03-scaling-throughput.ts': { world: 2, expect: ['throughput:'], onlyRank: 0 },
  };

/** The collectives lab page's programs, in page order. */
export function labSources(): string[] {
  return LAB_PLAYGROUNDS.map((p) => p.src);
}

/** Every program file. */
export function playgroundFiles(): string[] {
  return readdirSync(join(chaptersDir(), 'playgrounds'))
    .filter((f) => f.endsWith('.ts'))
    .sort();
}

/** Chapter files in book order. */
export function chapterFiles(): string[] {
  return readdirSync(chaptersDir())
    .filter((f) => /^\d+-.+\.mdx$/.test(f))
    .sort();
}

/** The attributes of every `<Playground … />` in a chapter, as written (expressions not yet evaluated). */
export function rawEmbeds(
  chapter: string,
): { src: string; world?: string; expect?: string; cluster?: SimulatedClusterOptions }[] {
  const mdx = readFileSync(join(chaptersDir(), chapter), 'utf8');
  return [...mdx.matchAll(/<Playground\s([\s\S]*?)\/>/g)].flatMap((tag) => {
    const attrs = tag[1]!;
    const src = /\bsrc="([^"]+)"/.exec(attrs)?.[1];
    if (!src) return [];
    const preset = /\bcluster="([^"]+)"/.exec(attrs)?.[1];
    const count = (name: string) => new RegExp(`\\b${name}=\\{(\\d+)\\}`).exec(attrs)?.[1];
    const slowdown = /\bslowdown=\{(\{[^}]*\})\}/.exec(attrs)?.[1];
    return [
      {
        src,
        world: /\bworld=\{([^}]+)\}/.exec(attrs)?.[1],
        expect: /\bexpect=\{(\[[\s\S]*\])\}/.exec(attrs)?.[1],
        ...(preset
          ? {
              cluster: {
                preset,
                // The page's defaults when an embed leaves a count out (Playground.astro).
                nodes: Number(count('nodes') ?? clusterPreset(preset).defaultNodes),
                gpusPerNode: Number(
                  count('gpusPerNode') ?? clusterPreset(preset).gpusPerNode.value,
                ),
                ...(slowdown
                  ? { slowdown: new Function(`return (${slowdown});`)() as Record<number, number> }
                  : {}),
              },
            }
          : {}),
      },
    ];
  });
}

/** The names a chapter's expressions may use: its numeric `export const`s and what it imports from src/lib. */
async function chapterScope(chapter: string): Promise<Record<string, unknown>> {
  const mdx = readFileSync(join(chaptersDir(), chapter), 'utf8');
  const scope: Record<string, unknown> = {};
  for (const m of mdx.matchAll(/^import\s*\{([^}]+)\}\s*from\s*'([^']+\/src\/lib\/[^']+)';?$/gm)) {
    const mod = (await import(
      resolve(chaptersDir(), m[2]!.endsWith('.ts') ? m[2]! : `${m[2]}.ts`)
    )) as Record<string, unknown>;
    for (const spec of m[1]!
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)) {
      const [name, local = name] = spec.split(/\s+as\s+/);
      scope[local!] = mod[name!];
    }
  }
  for (const m of mdx.matchAll(/^export const (\w+) = (\d+);$/gm)) scope[m[1]!] = Number(m[2]);
  // Small object literals of numbers, e.g. `export const transformer = { batch: 8, world: 4 };`.
  for (const m of mdx.matchAll(/^export const (\w+) = (\{(?:\s*\w+:\s*[\d.]+\s*,?)*\s*\});$/gm))
    scope[m[1]!] = new Function(`return (${m[2]});`)() as unknown;
  return scope;
}

/** Every playground: embedded ones with `world` and `expect` evaluated as the MDX does, lab ones, and the rest. */
export async function playgroundManifest(): Promise<PlaygroundEntry[]> {
  const entries: PlaygroundEntry[] = [];
  for (const chapter of chapterFiles()) {
    const embeds = rawEmbeds(chapter);
    if (embeds.length === 0) continue;
    const scope = await chapterScope(chapter);
    const evaluate = (expr: string) =>
      new Function(...Object.keys(scope), `return (${expr});`)(...Object.values(scope)) as unknown;
    for (const e of embeds)
      entries.push({
        src: e.src,
        page: chapter,
        world: e.cluster
          ? e.cluster.nodes * e.cluster.gpusPerNode
          : e.world
            ? Number(evaluate(e.world))
            : 4,
        expect: e.expect ? (evaluate(e.expect) as string[]) : [],
        ...(e.cluster ? { cluster: e.cluster } : {}),
      });
  }
  for (const p of LAB_PLAYGROUNDS)
    entries.push({ src: p.src, page: 'lab', world: 4, expect: p.expect });
  for (const src of playgroundFiles()) {
    if (entries.some((e) => e.src === src)) continue;
    const known = NOT_EMBEDDED[src];
    entries.push({
      src,
      page: null,
      world: known?.world ?? 4,
      expect: known?.expect ?? [],
      ...(known?.onlyRank === undefined ? {} : { onlyRank: known.onlyRank }),
    });
  }
  return entries;
}

export function readProgram(src: string): string {
  return readFileSync(join(chaptersDir(), 'playgrounds', src), 'utf8');
}
