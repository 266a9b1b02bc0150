/** Reading the built site's HTML as text, for the specs that check it without a browser. */

/**
 * The text a reader sees, minus what may legitimately hold braces: multi-line code listings
 * (<pre>: playground sources, Python and bash samples), scripts, styles, and KaTeX's copy of the
 * LaTeX source. Inline <code> stays in: that is exactly where an unevaluated expression hides.
 */
export function visibleText(html: string): string {
  return (
    html
      .replace(/<(pre|script|style|template|annotation)\b[\s\S]*?<\/\1>/gi, ' ')
      // Tags go whole, quoted attributes included (a playground's data-code holds `=>` and braces).
      .replace(/<[^\s>"'][^>"']*(?:"[^"]*"[^>"']*|'[^']*'[^>"']*)*>/g, ' ')
      .replace(/&#123;|&lbrace;/g, '{')
      .replace(/&#125;|&rbrace;/g, '}')
  );
}
