import { wireClusterSelector } from './cluster-selector.ts';
import { wireCodeTabs } from './code-tabs.ts';
import {
  forgetEditsBeforeShare,
  keepEditsBeforeShare,
  loadEdits,
  loadEditsBeforeShare,
} from './saved-edits.ts';
import { sharedCode, sharedId } from './share-link.ts';
import type { Workbench } from './workbench.ts';

/**
 * `<ranks-playground>`: until the reader focuses the code or presses Run, only this small element
 * runs. It then loads the editor and the runtime (workbench.ts) and hands over.
 */
class RanksPlayground extends HTMLElement {
  private bench?: Promise<Workbench | undefined>;
  private original = '';

  connectedCallback(): void {
    this.original = this.dataset.code ?? '';
    const listing = this.querySelector<HTMLElement>('[data-listing]')!;
    listing.tabIndex = 0;
    listing.setAttribute('role', 'button');
    listing.setAttribute('aria-label', 'Edit this code (opens the editor)');
    listing.addEventListener('focus', () => void this.open());
    listing.addEventListener('click', () => void this.open());
    this.querySelector('[data-action="run"]')!.addEventListener('click', () => this.requestRun());
    wireCodeTabs(this);
    wireClusterSelector(this, (text) => {
      if (!this.querySelector('.pg-run')?.hasAttribute('disabled')) this.setStatus(text);
    });
    this.setEdited(loadEdits(this.playgroundId) !== null);
  }

  /** Clicks on Run while the editor loads collapse into one run (the workbench then refuses a second). */
  private runRequested = false;
  private requestRun(): void {
    if (this.runRequested) return;
    this.runRequested = true;
    void this.open().then((w) => {
      this.runRequested = false;
      return w?.run();
    });
  }

  get playgroundId(): string {
    return this.dataset.id ?? '';
  }

  private setEdited(edited: boolean): void {
    this.querySelector<HTMLElement>('[data-edited]')!.hidden = !edited;
  }

  private setStatus(text: string): void {
    this.querySelector('[data-status]')!.textContent = text;
  }

  /** Adds a "Back to my edits" button to the status line when a share link put the reader's own edits aside. */
  private offerOwnEdits(bench: Workbench): void {
    const mine = loadEditsBeforeShare(this.playgroundId);
    if (mine === null) return;
    const back = document.createElement('button');
    back.type = 'button';
    back.className = 'pg-secondary pg-restore';
    back.textContent = 'Back to my edits';
    back.addEventListener('click', () => {
      bench.editor.setCode(mine);
      forgetEditsBeforeShare(this.playgroundId);
      this.setStatus('Your own edits are back in the editor.');
    });
    this.querySelector('[data-status]')!.append(' ', back);
  }

  /** Opens the code of the share link in the address bar, keeping the reader's own edits aside first. */
  async openShared(): Promise<void> {
    try {
      const code = await sharedCode();
      this.scrollIntoView({ block: 'start' });
      const existing = await this.bench;
      const mine = existing ? existing.editor.getCode() : loadEdits(this.playgroundId);
      let kept = true;
      if (mine !== null && mine !== code && mine !== this.original)
        kept = keepEditsBeforeShare(this.playgroundId, mine);
      const bench = existing ?? (await this.open(code));
      if (!bench) return;
      if (existing) bench.editor.setCode(code);
      this.setStatus(
        kept
          ? 'Opened the shared code. It has not run: press Run when you are ready.'
          : 'Opened the shared code. Your own edits could not be kept aside (this browser refused to store them): do not edit if you want them back; reload without the link instead.',
      );
      if (kept) this.offerOwnEdits(bench);
    } catch (e) {
      this.setStatus((e as Error).message);
    }
  }

  /** Loads the editor once; later calls return the same workbench. */
  open(code?: string): Promise<Workbench | undefined> {
    this.bench ??= (async () => {
      this.setStatus('Loading the editor…');
      const { createWorkbench } = await import('./workbench.ts');
      const initial = code ?? loadEdits(this.playgroundId) ?? this.original;
      const bench = await createWorkbench(this, {
        id: this.playgroundId,
        title: this.querySelector('.pg-title')?.textContent?.trim() ?? 'Playground',
        original: this.original,
        code: initial,
        backend: (this.dataset.backend as 'auto') ?? 'auto',
        checks: this.dataset.checks || undefined,
        setEdited: (edited) => this.setEdited(edited),
        setStatus: (text) => this.setStatus(text),
      });
      this.setEdited(initial !== this.original);
      this.setStatus('Edit the code, then press Run (Ctrl+Enter).');
      if (code === undefined) this.offerOwnEdits(bench);
      return bench;
    })().catch((e: unknown) => {
      this.bench = undefined;
      this.setStatus(
        `The editor could not load: ${e instanceof Error ? e.message : String(e)}. Reload the page to try again.`,
      );
      return undefined;
    });
    return this.bench;
  }
}

customElements.define('ranks-playground', RanksPlayground);

/** Says, once for the page, why a share link in the address bar cannot be opened (or clears it). */
function reportShareLink(problem: string | null): void {
  document.querySelector('.share-link-problem')?.remove();
  if (!problem) return;
  const p = document.createElement('p');
  p.className = 'share-link-problem';
  p.setAttribute('role', 'alert');
  p.textContent = problem;
  (document.querySelector('main') ?? document.body).prepend(p);
}

/** Opens the playground a share link addresses, on load and whenever only the hash changes. */
function openShareLink(): void {
  let id: string | null;
  try {
    id = sharedId();
  } catch (e) {
    return reportShareLink((e as Error).message);
  }
  if (id === null) return reportShareLink(null);
  const target = [...document.querySelectorAll<RanksPlayground>('ranks-playground')].find(
    (p) => p.playgroundId === id,
  );
  if (!target)
    return reportShareLink(
      `This share link is for a playground named "${id}", which is not on this page, so nothing was opened.`,
    );
  reportShareLink(null);
  void target.openShared();
}

openShareLink();
addEventListener('hashchange', openShareLink);
