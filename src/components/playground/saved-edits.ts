/** A reader's edits to one playground, kept in localStorage so a reload keeps them. */
const key = (id: string) => `ranks:playground:${id}`;
/** The reader's earlier versions, newest first: what a share link took out of the editor (issue 34, item 5). */
const versionsKey = (id: string) => `ranks:playground-versions:${id}`;
/** The code the last share link opened here: not the reader's, so never kept as one of their versions. */
const sharedKey = (id: string) => `ranks:playground-last-shared:${id}`;
/** Set while versions wait to be offered back (a share link took the editor; cleared once one is restored). */
const pendingKey = (id: string) => `ranks:playground-before-share:${id}`;

/** Versions kept per playground; the oldest goes first. */
export const MAX_VERSIONS = 5;

export interface SavedVersion {
  code: string;
  /** When it was kept (ms since 1970). */
  at: number;
}

function read(k: string): string | null {
  try {
    return localStorage.getItem(k);
  } catch {
    return null; // storage disabled: edits just do not persist
  }
}

function write(k: string, value: string | null): boolean {
  try {
    if (value === null) localStorage.removeItem(k);
    else localStorage.setItem(k, value);
    return true;
  } catch {
    return false;
  }
}

export const loadEdits = (id: string): string | null => read(key(id));

/** Saves (or clears) a playground's edits; false when the browser refused (storage full or disabled). */
export function saveEdits(id: string, code: string, original: string): boolean {
  return write(key(id), code === original ? null : code);
}

/** The reader's kept versions, newest first (an unreadable list reads as none). */
export function loadVersions(id: string): SavedVersion[] {
  const versions: SavedVersion[] = [];
  try {
    const list: unknown = JSON.parse(read(versionsKey(id)) ?? '[]');
    if (Array.isArray(list))
      for (const v of list as Partial<SavedVersion>[])
        if (typeof v?.code === 'string' && typeof v.at === 'number')
          versions.push({ code: v.code, at: v.at });
  } catch {
    /* none */
  }
  // The single slot earlier builds kept (the pending flag held the code itself).
  const legacy = read(pendingKey(id));
  if (legacy && legacy !== '1' && !versions.some((v) => v.code === legacy))
    versions.push({ code: legacy, at: 0 });
  return versions.slice(0, MAX_VERSIONS);
}

/** Remembers the code a share link opened here, so a later link does not keep it as the reader's. */
export const noteSharedCode = (id: string, code: string): boolean => write(sharedKey(id), code);

/**
 * Keeps the reader's code before shared code takes the editor, as the newest of their versions (the same
 * code is kept once), and marks the versions to be offered back. Code the last link opened is not the
 * reader's and is not kept (a second link must not push out the reader's own edits); code they changed is.
 * False if the browser refused to store it.
 */
export function keepEditsBeforeShare(id: string, code: string): boolean {
  if (code === read(sharedKey(id))) {
    write(pendingKey(id), '1'); // the reader's earlier versions are still offered
    return true;
  }
  const versions = [
    { code, at: Date.now() },
    ...loadVersions(id).filter((v) => v.code !== code),
  ].slice(0, MAX_VERSIONS);
  return write(versionsKey(id), JSON.stringify(versions)) && write(pendingKey(id), '1');
}

/** The reader's newest kept version while one waits to be offered back, if any. */
export function loadEditsBeforeShare(id: string): string | null {
  if (read(pendingKey(id)) === null) return null;
  return loadVersions(id)[0]?.code ?? null;
}

/** One was restored: stop offering (the versions stay kept). */
export function forgetEditsBeforeShare(id: string): void {
  const versions = loadVersions(id); // folds a legacy slot into the list before its key goes
  if (versions.length) write(versionsKey(id), JSON.stringify(versions));
  write(pendingKey(id), null);
}
