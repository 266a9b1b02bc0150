/** Minutes to read prose at ~220 words a minute; code, math and markup count less than words. */
export function readingMinutes(markdown: string): number {
  const prose = markdown
    .replace(/^---[\s\S]*?---/, '')
    .replace(/```[\s\S]*?```/g, (block) =>
      ' '.repeat(Math.ceil(block.split(/\s+/).length / 3)).replace(/ /g, 'w '),
    )
    .replace(/\$\$[\s\S]*?\$\$/g, ' w w w ')
    .replace(/^import .*$/gm, '')
    .replace(/<[^>]+>/g, ' ');
  const words = prose.split(/\s+/).filter(Boolean).length;
  return Math.max(1, Math.round(words / 220));
}
