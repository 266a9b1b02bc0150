/** A reader's edits to one playground, kept in localStorage so a reload keeps them. */
const key = (id: string) => `ranks:playground:${id}`;

export function loadEdits(id: string): string | null {
  try {
    return localStorage.getItem(key(id));
  } catch {
    return null; // storage disabled: edits just do not persist
  }
}

export function saveEdits(id: string, code: string, original: string): void {
  try {
    if (code === original) localStorage.removeItem(key(id));
    else localStorage.setItem(key(id), code);
  } catch {
    /* storage full or disabled: the editor still works */
  }
}
