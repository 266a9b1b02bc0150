const injected = new Set<string>();

/** Adds a stylesheet's text to the page once (Monaco's CSS, loaded only with the editor). */
export function injectCss(css: string): void {
  if (!css || injected.has(css) || typeof document === 'undefined') return;
  injected.add(css);
  const style = document.createElement('style');
  style.dataset.monaco = '';
  style.textContent = css;
  document.head.append(style);
}
