/**
 * The reader's progress on question cards, kept in localStorage: not tried, attempted or solved,
 * and each card's spaced-review state. Solved never falls back to attempted. Export/import use a
 * small versioned JSON document. The review state is plain data here; review-schedule.ts computes
 * it with FSRS, so pages that only show progress (chapter ends) do not load the scheduler.
 */
export type CardStatus = 'new' | 'attempted' | 'solved';

/** One card's FSRS memory state (ts-fsrs's Card, with dates as ISO strings). */
export interface ReviewState {
  due: string;
  last: string;
  stability: number;
  difficulty: number;
  elapsed: number;
  scheduled: number;
  steps: number;
  reps: number;
  lapses: number;
  state: number;
}

interface ProgressDoc {
  version: 1;
  cards: Record<string, { status: Exclude<CardStatus, 'new'>; at: string }>;
  /** Added after the first exports: optional, so older files still import. */
  review?: Record<string, ReviewState>;
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

export function reviewStates(): Record<string, ReviewState> {
  return read().review ?? {};
}

/** Stores a card's review state; false when it could not be saved in this browser. */
export function storeReview(id: string, state: ReviewState): boolean {
  const doc = read();
  doc.review = { ...doc.review, [id]: state };
  return write(doc);
}

/** Cards whose review is due at `now`, soonest first. */
export function dueIds(now: Date = new Date()): string[] {
  return Object.entries(reviewStates())
    .filter(([, r]) => Date.parse(r.due) <= now.getTime())
    .sort(([, a], [, b]) => Date.parse(a.due) - Date.parse(b.due))
    .map(([id]) => id);
}

const NUMERIC_REVIEW_FIELDS = [
  'stability',
  'difficulty',
  'elapsed',
  'scheduled',
  'steps',
  'reps',
  'lapses',
  'state',
] as const;

function validReview(r: unknown): r is ReviewState {
  if (typeof r !== 'object' || r === null) return false;
  const o = r as Record<string, unknown>;
  return (
    typeof o.due === 'string' &&
    !Number.isNaN(Date.parse(o.due)) &&
    typeof o.last === 'string' &&
    !Number.isNaN(Date.parse(o.last)) &&
    NUMERIC_REVIEW_FIELDS.every((k) => typeof o[k] === 'number' && Number.isFinite(o[k]))
  );
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
  const review: Record<string, ReviewState> = {};
  if (doc.review !== undefined) {
    if (typeof doc.review !== 'object' || doc.review === null || Array.isArray(doc.review))
      throw new Error('The export has an invalid review schedule.');
    for (const [id, r] of Object.entries(doc.review)) {
      if (!/^[\w-]+$/.test(id) || !validReview(r))
        throw new Error(`The export has an invalid review entry for "${id}".`);
      if (known && !known.has(id)) continue;
      review[id] = Object.fromEntries(
        (['due', 'last', ...NUMERIC_REVIEW_FIELDS] as const).map((k) => [k, r[k]]),
      ) as unknown as ReviewState;
    }
  }
  if (!write({ version: 1, cards, review }))
    throw new Error(
      'Your browser refused to store the progress (its storage for this site is full or disabled), so nothing was imported.',
    );
  return { stored: Object.keys(cards).length, skipped };
}

export function resetProgress(): boolean {
  return write({ version: 1, cards: {} });
}
