import type { ClusterEvent, RunRecord } from '../../../playground/cluster/protocol.ts';
import { MAX_LOG_LINES } from '../../../playground/contract/protocol.ts';
import { droppedLinesNote, paneLine } from '../../../playground/cluster/protocol.ts';
import { PlotView } from './plot-view.ts';
import { FOLD_ABOVE_RANKS } from '../../../playground/cluster/protocol.ts';
import { FoldedOutput } from './folded-output.ts';

type Line = {
  rank: number;
  time: number;
  text: string;
  kind: 'log' | 'warn' | 'error';
  line?: number;
  column?: number;
};

/** Lines a rank's pane keeps on screen; older ones leave the page (the download keeps them). */
export const MAX_PANE_LINES = 200;
/** Lines the combined view keeps on screen. */
export const MAX_COMBINED_LINES = 600;

/** Shortest gap between two redraws: a flood is redrawn a few times a second, not every frame. */
const REDRAW_MS = 250;

/** A line of a printed table: a tab, or two or more spaces between two words (columns padded to align). */
const TABLE_ROW = /\t|\S {2,}\S/;

const fmtCount = (n: number) => n.toLocaleString('en');
const byTime = (a: Line, b: Line) => a.time - b.time || a.rank - b.rank;

/** Lines of one rank waiting for the next frame: only its last KEEP_PENDING can reach the screen. */
interface PendingTail {
  lines: Line[];
  /** Every line that arrived, kept or not. */
  total: number;
}
/** The pending key of a folded world's one tail (all ranks together). */
const ALL_RANKS = -1;
/** Each rank's newest lines that can still be on screen after the next frame (panes and combined view). */
const KEEP_PENDING = Math.max(MAX_PANE_LINES, MAX_COMBINED_LINES);

interface Pane {
  pane: HTMLElement;
  body: HTMLElement;
  label: HTMLElement;
  note: HTMLElement;
  /** Lines that arrived but are not on screen (trimmed, or skipped within one frame). */
  offscreen: number;
}

/**
 * Per-rank output panes (live regions, `data-rank="k"`) and a combined view that interleaves every
 * rank's lines by time. Error lines that carry a source line link back to the editor.
 * A flood of output stays cheap: lines are drawn once per animation frame, each pane keeps its
 * last MAX_PANE_LINES, the combined view is merged incrementally, and the full log (the run's record, up
 * to MAX_LOG_LINES per rank) is a download away.
 */
export class OutputView {
  readonly root: HTMLElement;
  private panes = new Map<number, Pane>();
  private record: RunRecord | null = null;
  /** Per rank, bounded: a backlog on a loaded machine keeps no more than what the next frame can show. */
  private pending = new Map<number, PendingTail>();
  private frame = 0;
  private lastFlush = 0;
  /** The combined view's lines in time order (its DOM children match one to one unless stale). */
  private combinedLines: Line[] = [];
  private combinedStale = false;
  private combinedTotal = 0;
  private combined: HTMLElement;
  private combinedNote: HTMLElement;
  private grid: HTMLElement;
  private toggle: HTMLButtonElement;
  private download: HTMLButtonElement;
  /** Which clock the run's times are on, next to the buttons. */
  private clockNote: HTMLElement;
  /** Charts the program drew with `plot`, below the panes. */
  private plots = new PlotView();
  /** A world above FOLD_ABOVE_RANKS gets one folded view instead of a pane per rank (folded-output.ts). */
  private folded: FoldedOutput | null = null;

  constructor(private onJump: (line: number, column?: number) => void) {
    this.root = document.createElement('div');
    this.root.className = 'pg-output';
    const bar = document.createElement('div');
    bar.className = 'pg-output-bar';
    this.toggle = document.createElement('button');
    this.toggle.type = 'button';
    this.toggle.className = 'pg-view-toggle';
    this.toggle.textContent = 'Combined view';
    this.toggle.setAttribute('aria-pressed', 'false');
    this.toggle.addEventListener('click', () =>
      this.setCombined(this.toggle.getAttribute('aria-pressed') !== 'true'),
    );
    this.download = document.createElement('button');
    this.download.type = 'button';
    this.download.className = 'pg-view-toggle pg-download';
    this.download.textContent = 'Download log';
    this.download.addEventListener('click', () => this.downloadLog());
    this.clockNote = document.createElement('p');
    this.clockNote.className = 'pg-clock-note';
    bar.append(this.toggle, this.download, this.clockNote);
    this.grid = document.createElement('div');
    this.grid.className = 'pg-panes';
    this.combinedNote = document.createElement('p');
    this.combinedNote.className = 'pg-dropped';
    this.combinedNote.hidden = true;
    this.combined = document.createElement('pre');
    this.combined.className = 'pg-combined';
    this.combined.setAttribute('aria-label', 'All ranks, in time order');
    this.combined.hidden = true;
    this.root.append(bar, this.grid, this.combinedNote, this.combined, this.plots.root);
  }

  /**
   * Says which clock the printed times are on. On a simulated cluster the step report and the timeline are
   * virtual, but a program can still read this machine's clock (performance.now()), so the note says both.
   */
  setClock(simulated: string | null): void {
    this.clockNote.textContent = simulated
      ? `Clock: virtual time on ${simulated} for the step report, the timeline and dist.simulation.now(). A program's own timer (performance.now(), a wrapper's .timeline) still reads this machine's wall clock: it is read as the work runs here, before the cluster model has timed it.`
      : 'Clock: this machine’s wall clock (real time; the ranks share its cores).';
  }

  reset(worldSize: number): void {
    if (this.frame) cancelAnimationFrame(this.frame);
    this.frame = 0;
    this.pending.clear();
    this.record = null;
    this.combinedLines = [];
    this.combinedTotal = 0;
    this.combinedStale = false;
    this.panes.clear();
    this.grid.replaceChildren();
    this.combined.replaceChildren();
    this.combinedNote.hidden = true;
    this.plots.reset();
    this.grid.style.setProperty('--cols', String(Math.min(worldSize, 4)));
    this.folded?.root.remove();
    this.folded = worldSize > FOLD_ABOVE_RANKS ? new FoldedOutput(worldSize) : null;
    if (this.folded) return this.grid.before(this.folded.root);
    for (let r = 0; r < worldSize; r++) this.pane(r);
  }

  private pane(rank: number): Pane {
    let p = this.panes.get(rank);
    if (p) return p;
    const pane = document.createElement('section');
    pane.className = 'pg-pane';
    pane.dataset.rank = String(rank);
    pane.style.setProperty('--rank', `var(--rank-${rank % 8})`);
    const label = document.createElement('h4');
    label.textContent = `rank ${rank}`;
    label.id = `${crypto.randomUUID()}`;
    const note = document.createElement('p');
    note.className = 'pg-dropped';
    note.hidden = true;
    const body = document.createElement('pre');
    body.setAttribute('role', 'log');
    body.setAttribute('aria-live', 'polite');
    body.setAttribute('aria-labelledby', label.id);
    body.tabIndex = 0;
    pane.append(label, note, body);
    this.grid.append(pane);
    p = { pane, body, label, note, offscreen: 0 };
    this.panes.set(rank, p);
    return p;
  }

  setBackend(rank: number, backend: string, reason?: string): void {
    if (this.folded) return this.folded.setBackend(backend); // no pane per rank in a large world
    const { label } = this.pane(rank);
    label.textContent = `rank ${rank} · ${backend}`;
    if (reason) label.title = reason;
  }

  /** Adds a run-wide message (compile error, stop, timeout) above the panes. */
  notice(text: string, kind: 'error' | 'info', at?: { line?: number; column?: number }): void {
    const p = document.createElement('p');
    p.className = `pg-notice ${kind}`;
    p.setAttribute('role', kind === 'error' ? 'alert' : 'status');
    p.append(
      this.lineNode(
        { rank: -1, time: 0, text, kind: kind === 'error' ? 'error' : 'log', ...at },
        false,
      ),
    );
    this.grid.before(p);
  }

  clearNotices(): void {
    this.root.querySelectorAll('.pg-notice').forEach((n) => n.remove());
  }

  /** Takes one event; the page draws it with the others of this animation frame. */
  add(e: ClusterEvent): void {
    if (e.type === 'backend') return this.setBackend(e.rank, e.backend, e.reason);
    if (e.type === 'plot') return this.plots.add(e.points);
    if (e.type !== 'log' && e.type !== 'error') return;
    const line: Line =
      e.type === 'log'
        ? {
            rank: e.rank,
            time: e.time,
            text: paneLine(e.text),
            kind: e.level === 'error' ? 'error' : e.level === 'warn' ? 'warn' : 'log',
          }
        : {
            rank: e.rank,
            time: e.time,
            text: paneLine(e.message),
            kind: 'error',
            line: e.line,
            column: e.column,
          };
    // A large world folds each line as it comes (O(1) a line) and keeps one bounded tail for the combined
    // view, the newest lines of all ranks, instead of one per rank: a redraw never sorts 1,024 ranks' backlog.
    this.folded?.add(line.rank, line.text, line.kind);
    const key = this.folded ? ALL_RANKS : line.rank;
    let tail = this.pending.get(key);
    if (!tail) this.pending.set(key, (tail = { lines: [], total: 0 }));
    tail.total++;
    tail.lines.push(line);
    if (tail.lines.length >= 2 * KEEP_PENDING) tail.lines.splice(0, KEEP_PENDING); // amortised: one cut per KEEP_PENDING lines
    this.frame ||= requestAnimationFrame(() => this.flushWhenDue());
  }

  /** Draws whatever is still waiting for a frame (the run ended: the panes must be final now). */
  flushNow(): void {
    this.plots.flushNow();
    if (!this.frame) return void this.folded?.render();
    cancelAnimationFrame(this.frame);
    this.flush();
  }

  private flushWhenDue(): void {
    if (performance.now() - this.lastFlush < REDRAW_MS && !this.firstLineWaiting()) {
      this.frame = requestAnimationFrame(() => this.flushWhenDue());
      return;
    }
    this.flush();
  }

  /** A rank whose pane is still empty has a line waiting: it is drawn at the next frame (at most once per rank and run). */
  private firstLineWaiting(): boolean {
    if (this.folded) return false;
    for (const rank of this.pending.keys()) if (!this.panes.get(rank)?.body.firstChild) return true;
    return false;
  }

  /**
   * Draws every line that arrived since the last frame. Work per frame (and memory between frames) is bounded
   * by what can stay on screen, each rank's last KEEP_PENDING lines, never by the backlog: on a loaded
   * machine a flood can leave tens of thousands of lines waiting for one frame.
   */
  private flush(): void {
    this.frame = 0;
    this.lastFlush = performance.now();
    const tails = this.pending;
    this.pending = new Map();
    let arrived = 0;
    for (const [rank, { lines, total }] of tails) {
      arrived += total;
      if (this.folded) continue;
      const p = this.pane(rank);
      const shown = lines.slice(-MAX_PANE_LINES);
      p.offscreen += total - shown.length;
      const fragment = document.createDocumentFragment();
      for (const l of shown) fragment.append(this.lineNode(l));
      p.body.append(fragment);
      for (let excess = p.body.childNodes.length - MAX_PANE_LINES; excess > 0; excess--) {
        p.body.firstChild!.remove();
        p.offscreen++;
      }
      if (p.offscreen) {
        p.note.hidden = false;
        p.note.textContent = `${fmtCount(p.offscreen)} earlier line${p.offscreen === 1 ? '' : 's'} not shown here: use Download log for the full output.`;
      }
    }
    this.folded?.render();
    this.combinedTotal += arrived;
    // A line older than its own rank's last MAX_COMBINED_LINES can never be among the last MAX_COMBINED_LINES overall.
    this.mergeCombined([...tails.values()].flatMap((t) => t.lines.slice(-MAX_COMBINED_LINES)));
  }

  /** Merges a frame's lines (at most MAX_COMBINED_LINES per rank) into the combined view, touching only the DOM after the earliest new line. */
  private mergeCombined(batch: Line[]): void {
    if (!batch.length) return;
    const fresh = batch.slice().sort(byTime);
    const old = this.combinedLines;
    // First position where a new line goes: everything before it stays as it is on screen.
    let first = old.length;
    while (first > 0 && byTime(old[first - 1]!, fresh[0]!) > 0) first--;
    const tail = old.slice(first);
    const merged: Line[] = old.slice(0, first);
    for (let i = 0, j = 0; i < tail.length || j < fresh.length;) {
      merged.push(
        j >= fresh.length || (i < tail.length && byTime(tail[i]!, fresh[j]!) <= 0)
          ? tail[i++]!
          : fresh[j++]!,
      );
    }
    const cut = Math.max(0, merged.length - MAX_COMBINED_LINES);
    this.combinedLines = merged.slice(cut);
    const hidden = this.combinedTotal - this.combinedLines.length;
    this.combinedNote.textContent = `Showing the last ${fmtCount(this.combinedLines.length)} of ${fmtCount(this.combinedTotal)} lines: use Download log for the full output.`;
    this.combinedNote.hidden = this.combined.hidden || hidden === 0;
    if (this.combined.hidden || this.combinedStale) {
      this.combinedStale = true;
      return;
    }
    if (cut >= first) {
      this.combined.replaceChildren(...this.combinedLines.map((l) => this.combinedNode(l)));
      return;
    }
    while (this.combined.childElementCount > first) this.combined.lastElementChild!.remove();
    const fragment = document.createDocumentFragment();
    for (let i = first; i < merged.length; i++) fragment.append(this.combinedNode(merged[i]!));
    this.combined.append(fragment);
    for (let i = 0; i < cut; i++) this.combined.firstElementChild!.remove();
  }

  /**
   * A plain line is a bare text node (cheap to lay out in a flood); warnings, errors and table rows get a span.
   * A row of aligned columns (a tab, or two spaces between words) keeps its layout and scrolls sideways
   * instead of wrapping, so a printed table is never mangled; every other line wraps.
   */
  private lineNode(l: Line, newline = true): Node {
    const tabular = TABLE_ROW.test(l.text);
    if (l.kind === 'log' && newline && !tabular) return document.createTextNode(`${l.text}\n`);
    const span = document.createElement('span');
    span.className = `pg-line ${l.kind}${tabular ? ' pg-table-row' : ''}`;
    if (l.kind === 'error' && l.line) {
      const a = document.createElement('button');
      a.type = 'button';
      a.className = 'pg-jump';
      a.textContent = `line ${l.line}`;
      a.addEventListener('click', () => this.onJump(l.line!, l.column));
      span.append(a, ' ');
    }
    span.append(newline ? `${l.text}\n` : l.text);
    return span;
  }

  private combinedNode(l: Line): HTMLElement {
    const row = document.createElement('span');
    row.className = 'pg-cline';
    const tag = document.createElement('span');
    tag.className = 'pg-tag';
    tag.style.setProperty('--rank', `var(--rank-${l.rank % 8})`);
    tag.textContent = `[rank ${l.rank}] `;
    row.append(tag, this.lineNode(l));
    return row;
  }

  setCombined(on: boolean): void {
    this.toggle.setAttribute('aria-pressed', String(on));
    this.combined.hidden = !on;
    this.grid.hidden = on;
    if (this.folded) this.folded.root.hidden = on;
    this.combinedNote.hidden = !on || this.combinedTotal === this.combinedLines.length;
    if (on && this.combinedStale) {
      this.combinedStale = false;
      this.combined.replaceChildren(...this.combinedLines.map((l) => this.combinedNode(l)));
    }
  }

  /** The run's record is what the download reads (the view keeps only what is on screen). */
  attach(record: RunRecord): void {
    this.record = record;
  }

  /** The run's whole output, every rank in time order, as a text file. */
  private downloadLog(): void {
    const record = this.record;
    if (!record) return;
    const all = record.combined();
    const dropped = record.ranks.flatMap((r) =>
      r.droppedLines ? [`${droppedLinesNote(r.rank, r.droppedLines, MAX_LOG_LINES)}\n`] : [],
    );
    const blob = new Blob([...all.map((l) => `[rank ${l.rank}] ${l.text}\n`), ...dropped], {
      type: 'text/plain',
    });
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = 'ranks-output.txt';
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 30_000);
  }
}
