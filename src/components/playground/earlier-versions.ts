import { loadVersions } from './saved-edits.ts';

const time = (at: number) =>
  at
    ? new Date(at).toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'short' })
    : 'earlier';
const lines = (code: string) => {
  const n = code.split('\n').length;
  return `${n} line${n === 1 ? '' : 's'}`;
};

/**
 * Appends to `status` a "Back to my edits" button (the newest kept version) and, when more are kept, a
 * labelled list of the reader's earlier versions with a Restore button: plain buttons and a select, so the
 * keyboard reaches every version. `restore` puts the chosen code in the editor.
 */
export function offerEarlierVersions(
  status: Element,
  id: string,
  restore: (code: string) => void,
): void {
  const versions = loadVersions(id);
  if (!versions.length) return;
  const back = document.createElement('button');
  back.type = 'button';
  back.className = 'pg-secondary pg-restore';
  back.textContent = 'Back to my edits';
  back.addEventListener('click', () => restore(versions[0]!.code));
  status.append(' ', back);
  if (versions.length < 2) return;
  const select = document.createElement('select');
  select.className = 'pg-versions';
  select.setAttribute('aria-label', 'Your earlier versions');
  versions.forEach((v, i) => {
    const option = document.createElement('option');
    option.value = String(i);
    option.textContent = `${i === 0 ? 'Newest' : `Version ${versions.length - i}`}: ${time(v.at)}, ${lines(v.code)}`;
    select.append(option);
  });
  const pick = document.createElement('button');
  pick.type = 'button';
  pick.className = 'pg-secondary pg-restore-version';
  pick.textContent = 'Restore this version';
  pick.addEventListener('click', () => restore(versions[Number(select.value)]!.code));
  status.append(' ', select, ' ', pick);
}
