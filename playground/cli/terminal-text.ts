/**
 * What the CLI prints of a program's output, made safe for a terminal: a program's text could otherwise carry
 * escape sequences (OSC 52 sets the clipboard, others retitle the window or move the cursor) or start a new
 * line that looks like another rank's (`\n[rank 3] …`). Every line of a rank's text gets that rank's prefix;
 * C0 controls (tab kept) become their visible Unicode "control pictures" (ESC prints as ␛, CR as ␍), DEL as ␡,
 * and C1 and bidirectional-override characters as `\uXXXX`.
 */
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

function visible(c: string): string {
  const code = c.charCodeAt(0);
  if (code < 0x20) return String.fromCharCode(0x2400 + code);
  if (code === 0x7f) return '\u2421';
  return `\\u${code.toString(16).padStart(4, '0')}`;
}

/** `text` with every control character replaced by a visible stand-in; newlines too. */
export function terminalSafe(text: string): string {
  return text.replace(/\n/g, '\u2424').replace(UNSAFE, visible);
}

/** `text` as terminal lines, each one starting with `prefix`, ready to write. */
export function prefixedLines(prefix: string, text: string): string {
  return text
    .split('\n')
    .map((line) => `${prefix}${line.replace(UNSAFE, visible)}\n`)
    .join('');
}
