/**
 * Build-time generator of the typings the playground editor loads: declarations emitted by the
 * TypeScript compiler from the runtime's own 'ranks' module, plus the tfjs packages' shipped .d.ts.
 * Everything is keyed by the virtual path Monaco's TypeScript worker resolves imports against.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { createRequire } from 'node:module';
import ts from 'typescript';

const require = createRequire(import.meta.url);
const TFJS_PACKAGES = ['tfjs', 'tfjs-core', 'tfjs-layers', 'tfjs-converter', 'tfjs-data'];
const LICENSE = /^\/\*\*?\s*\n?\s*\*\s*@license[\s\S]*?\*\/\s*/;

/** Declarations of playground/rank/ranks-module.ts and everything it imports, as `node_modules/ranks/…`. */
function ranksDeclarations(root) {
  const entry = join(root, 'playground', 'rank', 'ranks-module.ts');
  const options = {
    declaration: true,
    emitDeclarationOnly: true,
    allowImportingTsExtensions: true,
    strict: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    skipLibCheck: true,
    types: [],
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
  };
  const files = {};
  const program = ts.createProgram([entry], options);
  const base = join(root, 'playground');
  program.emit(undefined, (fileName, text) => {
    if (!fileName.startsWith(base)) return;
    const path = `file:///node_modules/ranks/${relative(base, fileName).replaceAll('\\', '/')}`;
    files[path] = text.replace(/(from\s+['"]\.{1,2}\/[^'"]+)\.ts(['"])/g, '$1$2');
  });
  files['file:///node_modules/ranks/index.d.ts'] = "export * from './rank/ranks-module';\n";
  if (Object.keys(files).length < 3)
    throw new Error(
      'editor typings: the TypeScript compiler emitted no declarations for the ranks module',
    );
  return files;
}

function walk(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

/** The tfjs packages' own declarations, licence headers dropped (hover docs kept). */
function tfjsDeclarations() {
  const files = {};
  for (const pkg of TFJS_PACKAGES) {
    const pkgDir = dirname(require.resolve(`@tensorflow/${pkg}/package.json`));
    for (const file of walk(join(pkgDir, 'dist'))) {
      files[
        `file:///node_modules/@tensorflow/${pkg}/${relative(pkgDir, file).replaceAll('\\', '/')}`
      ] = readFileSync(file, 'utf8').replace(LICENSE, '');
    }
    files[`file:///node_modules/@tensorflow/${pkg}/index.d.ts`] = "export * from './dist/index';\n";
  }
  return files;
}

export function editorTypings(root = process.cwd()) {
  return { ...tfjsDeclarations(), ...ranksDeclarations(root) };
}

/** Vite plugin: `import typings from 'virtual:ranks-editor-types'` gives { path: source } for Monaco. */
export function editorTypesPlugin() {
  const id = 'virtual:ranks-editor-types';
  return {
    name: 'ranks-editor-types',
    resolveId: (source) => (source === id ? `\0${id}` : undefined),
    load(resolved) {
      if (resolved !== `\0${id}`) return undefined;
      return `export default ${JSON.stringify(editorTypings())};`;
    },
  };
}
