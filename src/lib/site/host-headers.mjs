// @ts-check
/**
 * Headers every page and file of the site is served with: by the dev and preview servers
 * (astro.config.mjs), the e2e static server, and static hosts reading public/_headers (a unit test
 * keeps that file in step with this one).
 */

/** Cross-origin isolation: SharedArrayBuffer (the ranks' shared memory) needs COOP and COEP. */
export const isolationHeaders = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

/**
 * Nothing leaves for another origin, and no string becomes code: the reader's program is loaded
 * as a blob: module (script-src blob:), so neither the page nor a rank needs 'unsafe-eval'.
 * 'wasm-unsafe-eval' lets WebAssembly compile (tfjs's WASM backend, the reduction kernel, Pagefind).
 * Styles stay 'unsafe-inline': Astro inlines small stylesheets, Shiki colours tokens with style
 * attributes, and Monaco injects its own; none of that can run code.
 */
export const contentSecurityPolicy = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval' blob:",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "manifest-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export const siteHeaders = {
  ...isolationHeaders,
  'Content-Security-Policy': contentSecurityPolicy,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

/**
 * Files under /_astro/ carry a content hash in their name, so a browser may keep them for good: the second to
 * fourth rank worker then read the scripts and WASM the first one fetched from the HTTP cache, not the network.
 */
export const hashedAssetPath = '/_astro/';
export const hashedAssetHeaders = { 'Cache-Control': 'public, max-age=31536000, immutable' };
