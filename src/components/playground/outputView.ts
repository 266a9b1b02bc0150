import type { ClusterEvent } from '../../../playground/cluster/protocol.ts';

type Line = { rank: number; time: number; text: string; kind: 'log' | 'warn' | 'error'; line?: number; column?: number };

/**
 * Per-rank output panes (live regions, `data-rank="k"`) and a combined view that interleaves every
 * rank's lines by time. Error lines that carry a source line link back to the editor.
 */
export class OutputView {
  readonly root: HTMLElement;
  private panes = new Map<number, { pane: HTMLElement; body: HTMLElement; label: HTMLElement }>();
  private lines: Line[] = [];
  private combined: HTMLElement;
  private grid: HTMLElement;
  private toggle: HTMLButtonElement;

  constructor(private onJump: (line: number, column?: number) => void) {
    this.root = document.createElement('div');
    this.root.className = 'pg-output';
    this.toggle = document.createElement('button');
    this.toggle.type = 'button';
    this.toggle.className = 'pg-view-toggle';
    this.toggle.textContent = 'Combined view';
    this.toggle.setAttribute('aria-pressed', 'false');
    this.toggle.addEventListener('click', () => this.setCombined(this.toggle.getAttribute('aria-pressed') !== 'true'));
    this.grid = document.createElement('div');
    this.grid.className = 'pg-panes';
    this.combined = document.createElement('pre');
    this.combined.className = 'pg-combined';
    this.combined.setAttribute('aria-label', 'All ranks, in time order');
    this.combined.hidden = true;
    this.root.append(this.toggle, this.grid, this.combined);
  }

  reset(worldSize: number): void {
    this.lines = [];
    this.panes.clear();
    this.grid.replaceChildren();
    this.combined.replaceChildren();
    this.grid.style.setProperty('--cols', String(Math.min(worldSize, 4)));
    for (let r = 0; r < worldSize; r++) this.pane(r);
  }

  private pane(rank: number) {
    let p = this.panes.get(rank);
    if (p) return p;
    const pane = document.createElement('section');
    pane.className = 'pg-pane';
    pane.dataset.rank = String(rank);
    pane.style.setProperty('--rank', `var(--rank-${rank % 8})`);
    const label = document.createElement('h4');
    label.textContent = `rank ${rank}`;
    label.id = `${crypto.randomUUID()}`;
    const body = document.createElement('pre');
    body.setAttribute('role', 'log');
    body.setAttribute('aria-live', 'polite');
    body.setAttribute('aria-labelledby', label.id);
    body.tabIndex = 0;
    pane.append(label, body);
    this.grid.append(pane);
    p = { pane, body, label };
    this.panes.set(rank, p);
    return p;
  }

  setBackend(rank: number, backend: string, reason?: string): void {
    const { label } = this.pane(rank);
    label.textContent = `rank ${rank} · ${backend}`;
    if (reason) label.title = reason;
  }

  /** Adds a run-wide message (compile error, stop, timeout) above the panes. */
  notice(text: string, kind: 'error' | 'info', at?: { line?: number; column?: number }): void {
    const p = document.createElement('p');
    p.className = `pg-notice ${kind}`;
    p.setAttribute('role', kind === 'error' ? 'alert' : 'status');
    p.append(this.lineNode({ rank: -1, time: 0, text, kind: kind === 'error' ? 'error' : 'log', ...at }));
    this.grid.before(p);
  }

  clearNotices(): void {
    this.root.querySelectorAll('.pg-notice').forEach((n) => n.remove());
  }

  add(e: ClusterEvent): void {
    if (e.type === 'backend') return this.setBackend(e.rank, e.backend, e.reason);
    if (e.type !== 'log' && e.type !== 'error') return;
    const line: Line = e.type === 'log'
      ? { rank: e.rank, time: e.time, text: e.text, kind: e.level === 'error' ? 'error' : e.level === 'warn' ? 'warn' : 'log' }
      : { rank: e.rank, time: e.time, text: e.message, kind: 'error', line: e.line, column: e.column };
    this.lines.push(line);
    this.pane(e.rank).body.append(this.lineNode(line), '\n');
    if (!this.combined.hidden) this.renderCombined();
  }

  private lineNode(l: Line): HTMLElement {
    const span = document.createElement('span');
    span.className = `pg-line ${l.kind}`;
    if (l.kind === 'error' && l.line) {
      const a = document.createElement('button');
      a.type = 'button';
      a.className = 'pg-jump';
      a.textContent = `line ${l.line}`;
      a.addEventListener('click', () => this.onJump(l.line!, l.column));
      span.append(a, ' ');
    }
    span.append(l.text);
    return span;
  }

  private renderCombined(): void {
    const sorted = [...this.lines].sort((a, b) => a.time - b.time || a.rank - b.rank);
    this.combined.replaceChildren(...sorted.flatMap((l) => {
      const tag = document.createElement('span');
      tag.className = 'pg-tag';
      tag.style.setProperty('--rank', `var(--rank-${l.rank % 8})`);
      tag.textContent = `[rank ${l.rank}] `;
      return [tag, this.lineNode(l), '\n'];
    }));
  }

  setCombined(on: boolean): void {
    this.toggle.setAttribute('aria-pressed', String(on));
    this.combined.hidden = !on;
    this.grid.hidden = on;
    if (on) this.renderCombined();
  }
}
