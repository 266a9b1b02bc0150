import {
  describeRanks,
  foldRankLines,
  type RunRecord,
} from '../../../playground/cluster/protocol.ts';

/** Lines the folded view draws; the rest are a download away, as in the panes. */
const MAX_FOLDED_LINES = 600;

/**
 * The output of a world too large for a pane per rank (playground/cluster/fold-lines.ts): one rank's lines in
 * full, rank 0 unless the reader picks another (a labelled select, so the keyboard reaches every rank),
 * then every other rank's lines with identical lines folded, each tagged with the ranks that printed it.
 */
export class FoldedOutput {
  readonly root: HTMLElement;
  private readonly picker: HTMLSelectElement;
  private readonly body: HTMLElement;
  private readonly note: HTMLElement;
  private record: RunRecord | null = null;

  constructor(worldSize: number) {
    this.root = document.createElement('section');
    this.root.className = 'pg-folded';
    const label = document.createElement('label');
    label.textContent = 'Show rank ';
    this.picker = document.createElement('select');
    for (let r = 0; r < worldSize; r++) this.picker.add(new Option(`rank ${r}`, String(r)));
    this.picker.addEventListener('change', () => this.render());
    label.append(this.picker);
    const help = document.createElement('p');
    help.className = 'pg-dropped';
    help.textContent = `${worldSize} ranks: the chosen rank's lines in full, then every other rank's, each identical line once with the ranks that printed it.`;
    this.note = document.createElement('p');
    this.note.className = 'pg-dropped';
    this.note.hidden = true;
    this.body = document.createElement('pre');
    this.body.setAttribute('role', 'log');
    this.body.setAttribute('aria-label', 'Output, identical lines folded');
    this.body.tabIndex = 0;
    this.root.append(label, help, this.note, this.body);
  }

  /** Redraws from the run's record (what every rank has printed so far). */
  render(record: RunRecord | null = this.record): void {
    this.record = record;
    if (!record) return;
    const lines = record.ranks.map((r) => r.lines.map((l) => ({ text: l.text, kind: l.kind })));
    const folded = foldRankLines(lines, Number(this.picker.value));
    const shown = folded.slice(0, MAX_FOLDED_LINES);
    this.body.replaceChildren(
      ...shown.map((l) => {
        const row = document.createElement('span');
        row.className = `pg-cline${l.kind === 'failure' || l.kind === 'error' ? ' error' : l.kind === 'warn' ? ' warn' : ''}`;
        const tag = document.createElement('span');
        tag.className = 'pg-tag';
        tag.textContent = `[${describeRanks(l.ranks)}] `;
        row.append(tag, `${l.text}\n`);
        return row;
      }),
    );
    this.note.hidden = folded.length <= shown.length;
    this.note.textContent = `Showing ${shown.length} of ${folded.length} folded lines: use Download log for the full output.`;
  }
}
