// The service worker keeps opened pages for offline reading; on hosts without isolation headers it adds them, and the page reloads once.
// A file, not an inline script, so the Content-Security-Policy needs no 'unsafe-inline'.
if ('serviceWorker' in navigator && isSecureContext) {
  const sw = navigator.serviceWorker;
  const reload = !crossOriginIsolated && !sessionStorage.getItem('ranks:sw-reloaded');
  // Files this page loaded before a worker (or this build's worker) controlled it are handed over to keep.
  const keep = () => sw.controller?.postMessage({ type: 'keep', urls: [location.href, ...performance.getEntriesByType('resource').map((e) => e.name)] });
  sw.addEventListener('controllerchange', keep);
  const register = () => sw.register('/isolation-sw.js').then(() => sw.ready).then(() => {
    if (reload) { sessionStorage.setItem('ranks:sw-reloaded', '1'); location.reload(); }
  }, () => {});
  // Isolated already, the worker only keeps an offline copy (≈ 0.6 MB gzip with the search index): it waits 5 s
  // after load and an idle moment with no run under way (data-ranks-running, set by the playgrounds), so neither a
  // reader who presses Run at once nor a run's output shares the network and the cores with its install.
  const attempt = () => document.documentElement.hasAttribute('data-ranks-running')
    ? setTimeout(attempt, 2000)
    : (self.requestIdleCallback ?? setTimeout)(() => document.documentElement.hasAttribute('data-ranks-running') ? attempt() : register(), { timeout: 5000 });
  const later = () => setTimeout(attempt, 5000);
  if (reload) register(); else addEventListener('load', later);
}
