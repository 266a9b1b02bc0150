import { wireCodeTabs } from './codeTabs.ts';
import { loadEdits } from './savedEdits.ts';
import { sharedCode, sharedId } from './shareLink.ts';
import type { Workbench } from './workbench.ts';

/**
 * `<ranks-playground>`: until the reader focuses the code or presses Run, only this small element
 * runs. It then loads the editor and the runtime (workbench.ts) and hands over.
 */
class RanksPlayground extends HTMLElement {
  private bench?: Promise<Workbench>;
  private original = '';

  connectedCallback(): void {
    this.original = this.dataset.code ?? '';
    const listing = this.querySelector<HTMLElement>('[data-listing]')!;
    listing.tabIndex = 0;
    listing.setAttribute('role', 'button');
    listing.setAttribute('aria-label', 'Edit this code (opens the editor)');
    listing.addEventListener('focus', () => void this.open());
    listing.addEventListener('click', () => void this.open());
    this.querySelector('[data-action="run"]')!.addEventListener('click', () => void this.open().then((w) => w?.run()));
    wireCodeTabs(this);
    this.setEdited(loadEdits(this.playgroundId) !== null);
    if (sharedId() === this.playgroundId) void this.openShared();
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

  private async openShared(): Promise<void> {
    try {
      const code = await sharedCode();
      this.scrollIntoView({ block: 'start' });
      const bench = await this.open(code);
      if (bench) this.setStatus('Opened the shared code. It has not run: press Run when you are ready.');
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
      return bench;
    })();
    return this.bench.catch((e: unknown) => {
      this.bench = undefined;
      this.setStatus(`The editor could not load: ${e instanceof Error ? e.message : String(e)}. Reload the page to try again.`);
      return undefined;
    });
  }
}

customElements.define('ranks-playground', RanksPlayground);
