// @ts-check
import { defineConfig } from 'astro/config';
import mdx from '@astrojs/mdx';
import { unified, rehypeHeadingIds } from '@astrojs/markdown-remark';
import remarkMath from 'remark-math';
import rehypeKatex from 'rehype-katex';
import rehypeAutolinkHeadings from 'rehype-autolink-headings';
import rehypeScrollableTables from './src/lib/markdown/rehype-scrollable-tables.mjs';
import { editorTypesPlugin } from './src/lib/playground/editor-types.mjs';
import { monacoCssOnDemand } from './src/lib/playground/monaco-css-on-demand.mjs';

import { isolationHeaders, siteHeaders } from './src/lib/site/host-headers.mjs';

// Cross-origin isolation and the Content-Security-Policy, defined once in src/lib/site/host-headers.mjs.
export { isolationHeaders };

export default defineConfig({
  // The content-schema test builds a broken fixture; its own cache keeps the real one intact.
  cacheDir: process.env.RANKS_CACHE_DIR ?? './node_modules/.astro',
  site: 'http://localhost:4321',
  trailingSlash: 'ignore',
  integrations: [mdx()],
  markdown: {
    // Astro 7's default Sätteri engine does not run remark/rehype plugins; KaTeX needs them.
    processor: unified({
      remarkPlugins: [remarkMath],
      rehypePlugins: [
        rehypeHeadingIds,
        [
          rehypeAutolinkHeadings,
          {
            behavior: 'append',
            properties: { className: ['heading-anchor'], ariaHidden: 'true', tabIndex: -1 },
            content: { type: 'text', value: '#' },
          },
        ],
        [rehypeKatex, { output: 'htmlAndMathml', throwOnError: true }],
        rehypeScrollableTables,
      ],
    }),
    shikiConfig: {
      themes: { light: 'github-light-high-contrast', dark: 'github-dark-high-contrast' },
      defaultColor: false,
      wrap: false,
    },
  },
  server: { headers: siteHeaders },
  devToolbar: { enabled: false },
  vite: {
    plugins: [editorTypesPlugin(), monacoCssOnDemand()],
    // Pre-bundle the heavy runtime deps so the first Run in `astro dev` doesn't hit "504 Outdated Optimize Dep".
    optimizeDeps: {
      include: [
        'comlink',
        'sucrase',
        '@tensorflow/tfjs',
        '@tensorflow/tfjs-backend-wasm',
        '@tensorflow/tfjs-backend-webgpu',
        'monaco-editor/editor',
        'monaco-editor/features/register.all',
        'monaco-editor/languages/definitions/typescript/register',
        'monaco-editor/languages/features/typescript/register',
      ],
    },
    worker: { format: 'es' },
    build: { assetsInlineLimit: 0 },
  },
});
