import { chosenWorld, wireClusterSelector } from './cluster-selector.ts';
import { wireCodeTabs } from './code-tabs.ts';
import {
  forgetEditsBeforeShare,
  keepEditsBeforeShare,
  loadEdits,
  loadEditsBeforeShare,
  noteSharedCode,
} from './saved-edits.ts';
import { offerEarlierVersions } from './earlier-versions.ts';
import { sharedCode, sharedId } from './share-link.ts';
import type { Workbench } from './workbench.ts';

/**
 * Warm ranks are prepared once the page has been quiet this long after the reader arrived (or came near a
 * playground, or chose a world): short, because a Run 2 s later should find four ranks ready.
 */
const WARM_AFTER_ARRIVAL_MS = 200;
/**
 * ...and this long after a run ended (its output is flushed by then): short enough that a set is ready when the
 * reader presses Run 2 s after the last run ended (the "warm"; 1 s left too little to prepare four ranks).
 */
const WARM_AFTER_RUN_MS = 300;
/** The longest the warming waits for an idle moment once due (a busy page may have none for a while). */
const WARM_IDLE_TIMEOUT_MS = 500;
/** A page hidden this long gives its warm ranks back (their memory and threads). */
const COOL_AFTER_HIDDEN_MS = 60_000;

/**
 * `<ranks-playground>`: until the reader focuses the code or presses Run, only this small element
 * runs. Run loads the runtime (workbench.ts) and runs at once; the editor loads after the run, or as
 * soon as the reader focuses the code. While the page is idle, the next run's ranks are warmed.
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
      // The world size (ranks or nodes × GPUs) changed: warm ranks of the new size.
      used(this);
      scheduleWarm();
    });
    this.setEdited(loadEdits(this.playgroundId) !== null);
    nearby?.observe(this);
  }

  disconnectedCallback(): void {
    nearby?.unobserve(this);
    near.delete(this);
    if (lastUsed === this) lastUsed = undefined; // no warm ranks for a playground that left the page
  }

  /** Clicks on Run while the runtime loads collapse into one run (the workbench then refuses a second). */
  private runRequested = false;
  private requestRun(): void {
    if (this.runRequested) return;
    this.runRequested = true;
    used(this);
    runsInFlight++;
    document.documentElement.toggleAttribute('data-ranks-running', true); // public/isolation-init.js waits for it
    const edited = loadEdits(this.playgroundId) !== null; // the listing does not show them: open the editor now
    void this.workbench()
      .then((w) => {
        this.runRequested = false;
        if (edited) void this.open(undefined, true);
        return w?.run();
      })
      .finally(() => {
        // The run's status replaced the line: offer edits a share link set aside again, while they are kept.
        if (this.editorOpened) void this.editorOpened.then((b) => b && this.offerOwnEdits(b));
        runsInFlight--;
        document.documentElement.toggleAttribute('data-ranks-running', runsInFlight > 0);
        lastRunEnded = performance.now();
        scheduleWarm();
      });
  }

  /** The ranks the next Run starts: the world select, or nodes × GPUs of a chosen cluster. */
  get worldSize(): number {
    return chosenWorld(this);
  }

  get backend(): 'auto' {
    return (this.dataset.backend as 'auto') ?? 'auto';
  }

  /**
   * Prepares the next run's ranks for this playground, the runtime side of the page and the program it would
   * run, then (once it has run) loads its editor too.
   */
  async warm(): Promise<void> {
    warmedOnce = true;
    const [{ warmFor }] = await Promise.all([import('./warm-ranks.ts'), import('./workbench.ts')]);
    // The reader may have pressed Run (or left) while the runtime downloaded: a set now would load beside that run.
    if (runsInFlight > 0 || document.hidden) return;
    const code = (await this.bench)?.getCode() ?? loadEdits(this.playgroundId) ?? this.original;
    await warmFor(this.worldSize, this.backend, { code, checks: this.dataset.checks || undefined });
    if (this.bench && !document.hidden && runsInFlight === 0) void this.open(undefined, true);
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

  /**
   * Adds "Back to my edits" (and a list of the reader's earlier versions, if more are kept) to the status line
   * when a share link put the reader's own edits aside.
   */
  private offerOwnEdits(bench: Workbench): void {
    const mine = loadEditsBeforeShare(this.playgroundId);
    if (mine === null || this.querySelector('.pg-restore')) return;
    offerEarlierVersions(this.querySelector('[data-status]')!, this.playgroundId, (code) => {
      bench.setCode(code);
      forgetEditsBeforeShare(this.playgroundId);
      this.setStatus('Your own edits are back in the editor.');
    });
  }

  /** Opens the code of the share link in the address bar, keeping the reader's own edits aside first. */
  async openShared(): Promise<void> {
    try {
      const code = await sharedCode();
      this.scrollIntoView({ block: 'start' });
      const existing = await this.bench;
      const mine = existing ? existing.getCode() : loadEdits(this.playgroundId);
      let kept = true;
      if (mine !== null && mine !== code && mine !== this.original)
        kept = keepEditsBeforeShare(this.playgroundId, mine);
      this.offeredOwnEdits = true; // offered below, with the status this opening sets
      const bench = await this.open(existing ? undefined : code, true);
      if (!bench) return;
      if (existing) bench.setCode(code);
      noteSharedCode(this.playgroundId, code); // not the reader's: a later link must not keep it as theirs
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

  /** Loads the runtime side (Run, Stop, output) once, without the editor; later calls return the same workbench. */
  private workbench(code?: string): Promise<Workbench | undefined> {
    this.bench ??= (async () => {
      const { createWorkbench } = await import('./workbench.ts');
      const initial = code ?? loadEdits(this.playgroundId) ?? this.original;
      const bench = await createWorkbench(this, {
        id: this.playgroundId,
        title: this.querySelector('.pg-title')?.textContent?.trim() ?? 'Playground',
        original: this.original,
        code: initial,
        backend: this.backend,
        checks: this.dataset.checks || undefined,
        setEdited: (edited) => this.setEdited(edited),
        setStatus: (text) => this.setStatus(text),
        requestRun: () => this.requestRun(),
      });
      this.setEdited(initial !== this.original);
      return bench;
    })().catch((e: unknown) => {
      this.bench = undefined;
      this.setStatus(
        `The playground could not load: ${e instanceof Error ? e.message : String(e)}. Reload the page to try again.`,
      );
      return undefined;
    });
    return this.bench;
  }

  /** Loads the editor once (`quiet`: the status line and the offer of own edits are left to the caller). */
  private editorOpened?: Promise<Workbench | undefined>;
  open(code?: string, quiet = false): Promise<Workbench | undefined> {
    this.editorOpened ??= (async () => {
      if (!quiet) this.setStatus('Loading the editor…');
      const bench = await this.workbench(code);
      if (!bench) return undefined;
      await bench.openEditor();
      if (!quiet) this.setStatus('Edit the code, then press Run (Ctrl+Enter).');
      return bench;
    })().catch((e: unknown) => {
      this.editorOpened = undefined;
      this.setStatus(
        `The editor could not load: ${e instanceof Error ? e.message : String(e)}. Reload the page to try again.`,
      );
      return undefined;
    });
    // The editor's first opening offers edits a share link set aside earlier, quiet or not: a quiet one (after a
    // run, or a Run with saved edits) replaces the listing, so the reader never opens it themselves.
    if (code === undefined && !this.offeredOwnEdits) {
      this.offeredOwnEdits = true;
      void this.editorOpened.then((bench) => bench && this.offerOwnEdits(bench));
    }
    return this.editorOpened;
  }
  private offeredOwnEdits = false;
}

/** Playgrounds on or near the screen; the warm ranks go to the one the reader is near or last used. */
const near = new Set<RanksPlayground>();
let lastUsed: RanksPlayground | undefined;
let runsInFlight = 0;
let warmTimer: ReturnType<typeof setTimeout> | undefined;
let coolTimer: ReturnType<typeof setTimeout> | undefined;
const nearby =
  typeof IntersectionObserver === 'function'
    ? new IntersectionObserver(
        (entries) => {
          for (const e of entries)
            if (e.isIntersecting) near.add(e.target as RanksPlayground);
            else near.delete(e.target as RanksPlayground);
          scheduleWarm();
        },
        { rootMargin: '50% 0px' },
      )
    : undefined;

const used = (playground: RanksPlayground) => {
  lastUsed = playground;
  readerPresent = true; // a Run or a world chosen is the reader's own doing
};

/** Warming waits for a sign of a reader (pointer, key, wheel, touch, scroll): nothing runs before interaction. */
let readerPresent = false;
const PRESENCE = ['pointermove', 'pointerdown', 'keydown', 'wheel', 'touchstart', 'scroll'];
const onPresence = () => {
  readerPresent = true;
  for (const type of PRESENCE) removeEventListener(type, onPresence, true);
  scheduleWarm();
};
for (const type of PRESENCE) addEventListener(type, onPresence, { capture: true, passive: true });

/** Whether this page ever started warming ranks (only then is there a set to give back when it hides). */
let warmedOnce = false;

/** When the last run ended (ms, performance.now()): no warming starts sooner than WARM_AFTER_RUN_MS after it. */
let lastRunEnded = -Infinity;

function scheduleWarm(): void {
  if (!readerPresent) return;
  clearTimeout(warmTimer);
  const quietMs = Math.max(
    WARM_AFTER_ARRIVAL_MS,
    lastRunEnded + WARM_AFTER_RUN_MS - performance.now(),
  );
  warmTimer = setTimeout(() => {
    const idle =
      globalThis.requestIdleCallback ??
      ((f: () => void, _options?: IdleRequestOptions) => setTimeout(f, 0));
    idle(
      () => {
        if (document.hidden || runsInFlight > 0) return;
        const onScreen = [...near].sort((a, b) =>
          a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1,
        );
        const target = lastUsed && near.has(lastUsed) ? lastUsed : (onScreen[0] ?? lastUsed);
        void target?.warm().catch(() => {}); // warming is a head start: a Run reports any real failure
      },
      { timeout: WARM_IDLE_TIMEOUT_MS },
    );
  }, quietMs);
}

document.addEventListener('visibilitychange', () => {
  clearTimeout(coolTimer);
  if (!document.hidden) return scheduleWarm();
  clearTimeout(warmTimer);
  if (!warmedOnce) return; // nothing to give back, and no reason to download the runtime to find that out
  coolTimer = setTimeout(
    () => void import('./warm-ranks.ts').then((m) => m.coolRanks()),
    COOL_AFTER_HIDDEN_MS,
  );
});

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
