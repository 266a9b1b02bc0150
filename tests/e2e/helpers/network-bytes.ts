import { gzipSync } from 'node:zlib';
import type { BrowserContext } from 'playwright-core';

/** One request of a page or its workers, with the gzip size of what it brought over the network. */
export interface FetchedRequest {
  url: string;
  /** Date.now() when it was sent. */
  at: number;
  /** Sent by a service worker (its own copies for offline reading). */
  sw: boolean;
  /** Gzipped bytes that came over the network; 0 for a service worker's answer or an HTTP-cache hit. */
  gzip: Promise<number>;
}

/**
 * Records every request `context` sends from now on (the cold-Run e2e test and the run-latency bench count the
 * same bytes). Network bytes only: not a service worker's answer, not an HTTP-cache hit (a negative body size);
 * a worker's own script fetched over the network reports a body size of 0, so 0 counts: its body is gzipped.
 */
export function recordNetworkBytes(context: BrowserContext): FetchedRequest[] {
  const fetched: FetchedRequest[] = [];
  context.on('request', (request) => {
    const gzip = request
      .response()
      .then(async (r) =>
        r && !r.fromServiceWorker() && (await request.sizes()).responseBodySize >= 0
          ? gzipSync(await r.body()).length
          : 0,
      )
      .catch(() => 0);
    fetched.push({
      url: request.url(),
      at: Date.now(),
      sw: request.serviceWorker() !== null,
      gzip,
    });
  });
  return fetched;
}
