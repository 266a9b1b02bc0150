// Serves a built site with the same headers (isolation, CSP) as `astro preview`,
// so e2e tests see exactly what a static host configured from public/_headers serves.
import { createServer } from 'node:http';
import { createReadStream, statSync } from 'node:fs';
import { extname, join, normalize, resolve } from 'node:path';
import { siteHeaders } from '../../src/lib/site/hostHeaders.mjs';

const root = resolve(process.argv[2] ?? 'dist');
const port = Number(process.argv[3] ?? 4399);
// --no-isolation imitates a static host that cannot send headers (tests the service-worker fallback).
const sendIsolation = !process.argv.includes('--no-isolation');

const types = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8', '.json': 'application/json', '.svg': 'image/svg+xml', '.png': 'image/png',
  '.woff2': 'font/woff2', '.woff': 'font/woff', '.ttf': 'font/ttf', '.wasm': 'application/wasm', '.txt': 'text/plain; charset=utf-8',
  '.ts': 'text/plain; charset=utf-8', '.map': 'application/json',
};
// --no-isolation also drops the CSP: such a host sends no headers at all.
const isolation = siteHeaders;

function resolveFile(urlPath) {
  const clean = normalize(decodeURIComponent(urlPath.split('?')[0])).replace(/^(\.\.[/\\])+/, '');
  const candidates = [join(root, clean), join(root, clean, 'index.html'), join(root, `${clean}.html`)];
  for (const file of candidates) {
    if (!file.startsWith(root)) continue;
    try { if (statSync(file).isFile()) return file; } catch { /* try the next candidate */ }
  }
  return null;
}

createServer((req, res) => {
  const file = resolveFile(req.url ?? '/');
  const headers = { ...(sendIsolation ? isolation : {}), 'Cache-Control': 'no-cache' };
  if (!file) {
    const notFound = resolveFile('/404.html');
    res.writeHead(404, { ...headers, 'Content-Type': 'text/html; charset=utf-8' });
    if (notFound) createReadStream(notFound).pipe(res); else res.end('Not found');
    return;
  }
  res.writeHead(200, { ...headers, 'Content-Type': types[extname(file)] ?? 'application/octet-stream' });
  createReadStream(file).pipe(res);
}).listen(port, '127.0.0.1', () => console.log(`serving ${root} on http://127.0.0.1:${port}/`));
