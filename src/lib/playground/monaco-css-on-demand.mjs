/**
 * Astro links the CSS of lazily imported modules into the page eagerly. Monaco imports ~120 CSS
 * files, so in the build each of those imports becomes an inline string injected as a <style> when
 * the Monaco chunk actually loads: chapter pages stay light until a reader opens an editor.
 */
import { fileURLToPath } from 'node:url';

const injector = fileURLToPath(
  new URL('../../components/playground/inject-css.ts', import.meta.url),
);

export function monacoCssOnDemand() {
  return {
    name: 'ranks-monaco-css-on-demand',
    apply: 'build',
    enforce: 'pre',
    transform(code, id) {
      if (!id.includes('/node_modules/monaco-editor/') || !id.endsWith('.js')) return undefined;
      let n = 0;
      const out = code.replace(/^import\s+['"]([^'"]+\.css)['"];?\s*$/gm, (_, path) => {
        const name = `__ranksMonacoCss${n++}`;
        return `import ${name} from '${path}?inline'; __ranksInjectCss(${name});`;
      });
      if (n === 0) return undefined;
      return {
        code: `import { injectCss as __ranksInjectCss } from ${JSON.stringify(injector)};\n${out}`,
        map: null,
      };
    },
  };
}
