/** A reader's edits to one playground, kept in localStorage so a reload keeps them. */
const key = (id: string) => `ranks:playground:${id}`;
/** Where a reader's own edits go when a share link opens other code in the same playground. */
const backupKey = (id: string) => `ranks:playground-before-share:${id}`;

function read(k: string): string | null {
  try {
    return localStorage.getItem(k);
  } catch {
    return null; // storage disabled: edits just do not persist
  }
}

export const loadEdits = (id: string): string | null => read(key(id));

/** Saves (or clears) a playground's edits; false when the browser refused (storage full or disabled). */
export function saveEdits(id: string, code: string, original: string): boolean {
  try {
    if (code === original) localStorage.removeItem(key(id));
    else localStorage.setItem(key(id), code);
    return true;
  } catch {
    return false;
  }
}

/** The reader's own edits kept aside when a share link replaced them in the editor, if any. */
export const loadEditsBeforeShare = (id: string): string | null => read(backupKey(id));

/** Keeps the reader's edits aside before shared code takes the editor; false if they could not be kept. */
export function keepEditsBeforeShare(id: string, code: string): boolean {
  try {
    localStorage.setItem(backupKey(id), code);
    return true;
  } catch {
    return false;
  }
}

export function forgetEditsBeforeShare(id: string): void {
  try {
    localStorage.removeItem(backupKey(id));
  } catch {
    /* nothing kept */
  }
}
