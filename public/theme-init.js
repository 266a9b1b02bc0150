// Runs before first paint (a blocking script in <head>) so a dark-theme reader never sees a white flash.
// A file, not an inline script, so the Content-Security-Policy needs no 'unsafe-inline'.
(() => {
  let theme = null;
  try { theme = localStorage.getItem('ranks:theme'); } catch {}
  if (theme !== 'light' && theme !== 'dark') {
    theme = matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
  }
  document.documentElement.dataset.theme = theme;
})();
