import { describeRanks, LineFolder } from '../../../playground/cluster/protocol.ts';

/** Lines the folded view draws; the rest are a download away, as in the panes. */
const MAX_FOLDED_LINES = 600;

/**
 * The output of a world too large for a pane per rank (playground/cluster/fold-lines.ts): one rank's lines in
 * full, rank 0 unless the reader picks another (a labelled select, so the keyboard reaches every rank),
 * then every other rank's lines with identical lines folded, each tagged with the ranks that printed it.
 * Lines are folded as they arrive (LineFolder) and the view redrawn at most once a frame by OutputView, so a
 * redraw costs the MAX_FOLDED_LINES it draws, not a pass over 1,024 ranks' output.
 */
export class FoldedOutput {
  readonly root: HTMLElement;
  private readonly picker: HTMLSelectElement;
  private readonly body: HTMLElement;
  private readonly note: HTMLElement;
  private readonly folder = new LineFolder(MAX_FOLDED_LINES);
  private readonly backends = new Map<string, number>();
  private readonly backendNote: HTMLElement;
  /** A line arrived (or the reader picked a rank) since the last draw. */
  private dirty = false;

  constructor(worldSize: number) {
    this.root = document.createElement('section');
    this.root.className = 'pg-folded';
    this.root.setAttribute('aria-label', 'Output of every rank, identical lines folded');
    const label = document.createElement('label');
    label.textContent = 'Show rank ';
    this.picker = document.createElement('select');
    this.picker.dataset.foldedRank = '';
    for (let r = 0; r < worldSize; r++) this.picker.add(new Option(`rank ${r}`, String(r)));
    this.picker.addEventListener('change', () => {
      this.dirty = true;
      this.render();
    });
    label.append(this.picker);
    const help = document.createElement('p');
    help.className = 'pg-dropped';
    help.textContent = `${worldSize.toLocaleString('en')} ranks: the chosen rank's lines in full, then every other rank's, each identical line once with the ranks that printed it.`;
    this.backendNote = document.createElement('p');
    this.backendNote.className = 'pg-dropped';
    this.backendNote.dataset.backends = '';
    this.note = document.createElement('p');
    this.note.className = 'pg-dropped';
    this.note.hidden = true;
    this.body = document.createElement('pre');
    this.body.setAttribute('role', 'log');
    this.body.setAttribute('aria-label', 'Output, identical lines folded');
    this.body.tabIndex = 0;
    this.root.append(label, help, this.backendNote, this.note, this.body);
  }

  /** Counts a rank's backend: the view says which backends the ranks run on, not one label per rank. */
  setBackend(backend: string): void {
    this.backends.set(backend, (this.backends.get(backend) ?? 0) + 1);
    this.dirty = true;
  }

  /** Folds one line in; drawn at the next render. */
  add(rank: number, text: string, kind: string): void {
    this.folder.add(rank, { text, kind });
    this.dirty = true;
  }

  /** Redraws if anything changed since the last draw. */
  render(): void {
    if (!this.dirty) return;
    this.dirty = false;
    const { lines, total } = this.folder.view(Number(this.picker.value), MAX_FOLDED_LINES);
    const fragment = document.createDocumentFragment();
    for (const l of lines) {
      const row = document.createElement('span');
      row.className = `pg-cline${l.kind === 'error' ? ' error' : l.kind === 'warn' ? ' warn' : ''}`;
      const tag = document.createElement('span');
      tag.className = 'pg-tag';
      tag.textContent = `[${describeRanks(l.ranks)}] `;
      row.append(tag, `${l.text}\n`);
      fragment.append(row);
    }
    this.body.replaceChildren(fragment);
    this.backendNote.textContent = this.backends.size
      ? `Backend: ${[...this.backends].map(([b, n]) => `${b} on ${n.toLocaleString('en')} rank${n === 1 ? '' : 's'}`).join(', ')}.`
      : '';
    const beyond = this.folder.beyond;
    this.note.hidden = total <= lines.length && beyond === 0;
    this.note.textContent = `Showing ${lines.length.toLocaleString('en')} of ${total.toLocaleString('en')} folded lines${beyond ? ` (and ${beyond.toLocaleString('en')} lines past each rank's first ${MAX_FOLDED_LINES})` : ''}: use Download log for the full output.`;
  }
}
