/**
 * The reader's progress on question cards, kept in localStorage: not tried, attempted or solved.
 * Solved never falls back to attempted. Export/import use a small versioned JSON document.
 */
export type CardStatus = 'new' | 'attempted' | 'solved';
interface ProgressDoc {
  version: 1;
  cards: Record<string, { status: Exclude<CardStatus, 'new'>; at: string }>;
}

const KEY = 'ranks:question-progress';
export const PROGRESS_EVENT = 'ranks:progress';

function read(): ProgressDoc {
  try {
    const doc = JSON.parse(localStorage.getItem(KEY) ?? 'null') as ProgressDoc | null;
    if (doc && doc.version === 1 && typeof doc.cards === 'object') return doc;
  } catch {
    /* unreadable or disabled storage: start empty */
  }
  return { version: 1, cards: {} };
}

/** Stores the document; false when the browser refused (storage full or disabled). */
function write(doc: ProgressDoc): boolean {
  let saved = true;
  try {
    localStorage.setItem(KEY, JSON.stringify(doc));
  } catch {
    saved = false; // progress lasts for this page only; callers tell the reader
  }
  document.dispatchEvent(new CustomEvent(PROGRESS_EVENT));
  return saved;
}

export function cardStatus(id: string): CardStatus {
  return read().cards[id]?.status ?? 'new';
}

export function allStatuses(): Record<string, CardStatus> {
  return Object.fromEntries(Object.entries(read().cards).map(([id, c]) => [id, c.status]));
}

/** Records a card's status; false when it could not be saved in this browser. */
export function markCard(id: string, status: Exclude<CardStatus, 'new'>): boolean {
  const doc = read();
  if (doc.cards[id]?.status === 'solved' && status === 'attempted') return true;
  doc.cards[id] = { status, at: new Date().toISOString() };
  return write(doc);
}

export function exportProgress(): string {
  return JSON.stringify(read(), null, 2);
}

/** The largest progress file import reads: an export of every card is a few kilobytes. */
export const MAX_IMPORT_BYTES = 256 * 1024;

/**
 * Replaces progress with an exported document and returns how many cards it stored. Only cards the
 * book has (when `knownIds` is given) and only their status and date are kept; anything else in the
 * file is dropped. Throws a reader-facing message if the file is not an export, is too large, or
 * could not be saved.
 */
export function importProgress(
  text: string,
  knownIds?: readonly string[],
): { stored: number; skipped: number } {
  if (text.length > MAX_IMPORT_BYTES)
    throw new Error(
      `That file is ${Math.round(text.length / 1024)} KB; a progress export is a few KB (at most ${MAX_IMPORT_BYTES / 1024} KB is read), so it was not imported.`,
    );
  let doc: ProgressDoc;
  try {
    doc = JSON.parse(text) as ProgressDoc;
  } catch {
    throw new Error('That file is not JSON: choose a file made by "Export progress".');
  }
  if (
    doc?.version !== 1 ||
    typeof doc.cards !== 'object' ||
    doc.cards === null ||
    Array.isArray(doc.cards)
  )
    throw new Error('That file is not a Ranks progress export.');
  const known = knownIds ? new Set(knownIds) : undefined;
  const cards: ProgressDoc['cards'] = {};
  let skipped = 0;
  for (const [id, c] of Object.entries(doc.cards)) {
    if (!/^[\w-]+$/.test(id) || (c?.status !== 'attempted' && c?.status !== 'solved'))
      throw new Error(`The export has an invalid entry for "${id}".`);
    if (known && !known.has(id)) {
      skipped++;
      continue;
    }
    const at =
      typeof c.at === 'string' && !Number.isNaN(Date.parse(c.at))
        ? new Date(c.at).toISOString()
        : new Date().toISOString();
    cards[id] = { status: c.status, at };
  }
  if (!write({ version: 1, cards }))
    throw new Error(
      'Your browser refused to store the progress (its storage for this site is full or disabled), so nothing was imported.',
    );
  return { stored: Object.keys(cards).length, skipped };
}

export function resetProgress(): boolean {
  return write({ version: 1, cards: {} });
}
