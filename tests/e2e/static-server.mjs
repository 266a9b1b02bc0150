// Serves a built site the way a static host would. Three modes:
//   (default)       the same headers (isolation, CSP; src/lib/site/host-headers.mjs) as `astro preview`;
//   --headers-file  the headers <root>/_headers gives each path, as Netlify and Cloudflare Pages read it;
//   --no-isolation  (or --plain) no custom headers at all, like GitHub Pages: the service worker must isolate.
import { createServer } from 'node:http';
import { createReadStream, readFileSync, statSync } from 'node:fs';
import { extname, join, normalize, resolve } from 'node:path';
import {
  hashedAssetHeaders,
  hashedAssetPath,
  siteHeaders,
} from '../../src/lib/site/host-headers.mjs';

const root = resolve(process.argv[2] ?? 'dist');
const port = Number(process.argv[3] ?? 4399);
const plain = process.argv.includes('--no-isolation') || process.argv.includes('--plain');
const fromHeadersFile = process.argv.includes('--headers-file');

const types = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
  '.ts': 'text/plain; charset=utf-8',
  '.map': 'application/json',
  '.webmanifest': 'application/manifest+json',
};

/** Rules of a Netlify-style _headers file: a path pattern (`*` splat, `:name` segment), then indented `Name: value` lines. */
function parseHeadersFile(text) {
  const rules = [];
  for (const line of text.split('\n')) {
    if (!line.trim() || line.trim().startsWith('#')) continue;
    if (!/^\s/.test(line)) {
      const pattern = line
        .trim()
        .replace(/[.+?^${}()|[\]\\]/g, '\\$&')
        .replace(/\*/g, '.*')
        .replace(/:\w+/g, '[^/]+');
      rules.push({ match: new RegExp(`^${pattern}$`), headers: {} });
    } else if (rules.length > 0) {
      const colon = line.indexOf(':');
      if (colon > 0)
        rules.at(-1).headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
    }
  }
  return rules;
}

const headerRules = fromHeadersFile
  ? parseHeadersFile(readFileSync(join(root, '_headers'), 'utf8'))
  : [];

function headersFor(urlPath) {
  const headers = { 'Cache-Control': 'no-cache' };
  if (fromHeadersFile) {
    const path = urlPath.split('?')[0];
    for (const rule of headerRules) if (rule.match.test(path)) Object.assign(headers, rule.headers);
  } else if (!plain) {
    Object.assign(headers, siteHeaders);
    if (urlPath.startsWith(hashedAssetPath)) Object.assign(headers, hashedAssetHeaders);
  }
  return headers;
}

function resolveFile(urlPath) {
  const clean = normalize(decodeURIComponent(urlPath.split('?')[0])).replace(/^(\.\.[/\\])+/, '');
  const candidates = [
    join(root, clean),
    join(root, clean, 'index.html'),
    join(root, `${clean}.html`),
  ];
  for (const file of candidates) {
    if (!file.startsWith(root)) continue;
    try {
      if (statSync(file).isFile()) return file;
    } catch {
      /* try the next candidate */
    }
  }
  return null;
}

const server = createServer((req, res) => {
  const file = resolveFile(req.url ?? '/');
  const headers = headersFor(req.url ?? '/');
  if (!file) {
    const notFound = resolveFile('/404.html');
    res.writeHead(404, { ...headers, 'Content-Type': 'text/html; charset=utf-8' });
    if (notFound) createReadStream(notFound).pipe(res);
    else res.end('Not found');
    return;
  }
  res.writeHead(200, {
    ...headers,
    'Content-Type': types[extname(file)] ?? 'application/octet-stream',
  });
  createReadStream(file).pipe(res);
});
// Port 0 picks a free port; the line below tells the caller which.
server.listen(port, '127.0.0.1', () =>
  console.log(`serving ${root} on http://127.0.0.1:${server.address().port}/`),
);
