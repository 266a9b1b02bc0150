/**
 * Output is bounded by size, not only by lines: one 256 MiB line, or 200 lines of 1 MiB, would otherwise be
 * copied to the page, kept in the run's record and laid out in a pane (issue 34, item 3). A rank cuts each
 * line before it leaves the worker; the pacer batches and waits by characters as well as lines; the record
 * stops keeping a rank's lines past a character budget, and the download reads the record.
 */

/** Characters a line keeps; the rest is counted in a note at its end. */
export const MAX_LINE_CHARS = 10_000;
/** Characters of a line a rank's pane shows (laying out 200 lines of 10,000 characters stalls the page). */
export const MAX_PANE_LINE_CHARS = 500;
/** Characters a run's record keeps per rank (every kept line together); later lines are counted, not kept. */
export const MAX_RANK_LOG_CHARS = 4 * 1024 * 1024;
/** Characters one log message from a rank carries before the pacer sends it (and may wait for the page). */
export const BATCH_CHARS = 64 * 1024;

const count = (n: number) => n.toLocaleString('en-US');

/** `text` cut to MAX_LINE_CHARS, saying how much was cut: "… 1,048,576 more characters". */
export function cutLine(text: string, max = MAX_LINE_CHARS): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)} … ${count(text.length - max)} more characters (a line keeps its first ${count(max)})`;
}

/** The note cutLine ends a line with. */
const CUT_NOTE = / … ([\d,]+) more characters \(a line keeps its first [\d,]+\)$/;

/**
 * `text` as a pane shows it: its first MAX_PANE_LINE_CHARS characters and how many more the line had in all
 * (counting what the rank cut); Download log has the first MAX_LINE_CHARS.
 */
export function paneLine(text: string): string {
  if (text.length <= MAX_PANE_LINE_CHARS) return text;
  const at = text.lastIndexOf(' … ');
  const note = at < 0 ? null : CUT_NOTE.exec(text.slice(at));
  const body = note ? text.slice(0, at) : text;
  if (body.length <= MAX_PANE_LINE_CHARS) return text;
  const more = body.length - MAX_PANE_LINE_CHARS + (note ? Number(note[1]!.replace(/,/g, '')) : 0);
  return `${body.slice(0, MAX_PANE_LINE_CHARS)} … ${count(more)} more characters (Download log has the first ${count(MAX_LINE_CHARS)})`;
}

/** The note a download or pane ends with for a rank whose later lines were not kept. */
export function droppedLinesNote(rank: number, dropped: number, maxLines: number): string {
  return `[rank ${rank}] … ${count(dropped)} more lines were not kept (a rank keeps its first ${count(maxLines)} lines or ${count(MAX_RANK_LOG_CHARS)} characters)`;
}
