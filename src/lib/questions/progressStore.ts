/**
 * The reader's progress on question cards, kept in localStorage: not tried, attempted or solved.
 * Solved never falls back to attempted. Export/import use a small versioned JSON document.
 */
export type CardStatus = 'new' | 'attempted' | 'solved';
interface ProgressDoc { version: 1; cards: Record<string, { status: Exclude<CardStatus, 'new'>; at: string }> }

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

function write(doc: ProgressDoc): void {
  try {
    localStorage.setItem(KEY, JSON.stringify(doc));
  } catch {
    /* storage full or disabled: progress lasts for this page only */
  }
  document.dispatchEvent(new CustomEvent(PROGRESS_EVENT));
}

export function cardStatus(id: string): CardStatus {
  return read().cards[id]?.status ?? 'new';
}

export function allStatuses(): Record<string, CardStatus> {
  return Object.fromEntries(Object.entries(read().cards).map(([id, c]) => [id, c.status]));
}

export function markCard(id: string, status: Exclude<CardStatus, 'new'>): void {
  const doc = read();
  if (doc.cards[id]?.status === 'solved' && status === 'attempted') return;
  doc.cards[id] = { status, at: new Date().toISOString() };
  write(doc);
}

export function exportProgress(): string {
  return JSON.stringify(read(), null, 2);
}

/** Replaces progress with an exported document; throws a reader-facing message if it is not one. */
export function importProgress(text: string): number {
  let doc: ProgressDoc;
  try {
    doc = JSON.parse(text) as ProgressDoc;
  } catch {
    throw new Error('That file is not JSON: choose a file made by "Export progress".');
  }
  if (doc?.version !== 1 || typeof doc.cards !== 'object' || doc.cards === null) throw new Error('That file is not a Ranks progress export.');
  for (const [id, c] of Object.entries(doc.cards)) {
    if (!/^[\w-]+$/.test(id) || (c?.status !== 'attempted' && c?.status !== 'solved')) throw new Error(`The export has an invalid entry for "${id}".`);
  }
  write(doc);
  return Object.keys(doc.cards).length;
}

export function resetProgress(): void {
  write({ version: 1, cards: {} });
}
