import type {
  BackendChoice,
  ClusterEvent,
  RunningCluster,
} from '../../../playground/cluster/protocol.ts';
import { chosenWorld, clusterSelection, describeSelection } from './cluster-selector.ts';
import type { PlaygroundEditor } from './monaco-editor.ts';
import { OutputView } from './output-view.ts';
import { saveEdits } from './saved-edits.ts';
import { shareUrl } from './share-link.ts';
import { renderStepReport } from './step-report-view.ts';
import { renderTimeline } from './timeline-view.ts';
import { renderVirtualTimeline } from './virtual-timeline-view.ts';

export interface WorkbenchConfig {
  id: string;
  title: string;
  original: string;
  code: string;
  backend: BackendChoice;
  checks?: string;
  setEdited(edited: boolean): void;
  setStatus(text: string): void;
  /** A Run from the editor (Ctrl+Enter) goes through the page's Run, which counts runs in flight (no warming during one). */
  requestRun?(): void;
}

export interface Workbench {
  run(): Promise<void>;
  stop(): void;
  /** Loads Monaco (once) in place of the static listing; Run never waits for it. */
  openEditor(): Promise<PlaygroundEditor>;
  /** The code a Run runs: the editor's once it is open, else the listing's (or the reader's saved edits). */
  getCode(): string;
  setCode(code: string): void;
  output: OutputView;
}

function button(label: string, text: string, cls: string): HTMLButtonElement {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = cls;
  b.textContent = text;
  b.setAttribute('aria-label', label);
  return b;
}

/**
 * Gives a playground Run, Stop, Reset, Share, output panes and a timeline at once, and upgrades its static
 * listing into Monaco only when asked (openEditor): a Run does not wait for the editor.
 */
export async function createWorkbench(root: HTMLElement, cfg: WorkbenchConfig): Promise<Workbench> {
  const cluster = import('../../../playground/cluster/browser.ts'); // load the runtime while Monaco loads
  const listing = root.querySelector<HTMLElement>('[data-listing]')!;
  const runButton = root.querySelector<HTMLButtonElement>('[data-action="run"]')!;
  const host = document.createElement('div');
  host.className = 'pg-editor';
  const lines = cfg.code.split('\n').length;
  host.style.height = `${Math.min(32, Math.max(10, lines * 1.2 + 1.5))}rem`;

  let running: RunningCluster | undefined;
  let saveFailed = false;
  // One run per playground: set from the first moment of run() (the runtime import is async), cleared when it ends.
  let active = false;
  let stopRequested = false;
  const stopButton = button('Stop', '■ Stop', 'pg-stop');
  const resetButton = button('Reset', 'Reset', 'pg-secondary');
  const shareButton = button('Share', 'Share', 'pg-secondary');
  stopButton.disabled = true;

  const output = new OutputView(
    (line, column) => void openEditor().then((e) => e.reveal(line, column)),
  );
  const timeline = document.createElement('details');
  timeline.className = 'pg-timeline';
  timeline.hidden = true;
  timeline.innerHTML =
    '<summary>Timeline of collectives</summary><div class="pg-timeline-body"></div>';
  const stepReport = document.createElement('section');
  stepReport.className = 'pg-step-report';
  stepReport.setAttribute('aria-label', 'Step report in virtual time');
  stepReport.hidden = true;

  const keepEdits = (code: string) => {
    const saved = saveEdits(cfg.id, code, cfg.original);
    cfg.setEdited(code !== cfg.original);
    if (!saved && !saveFailed)
      cfg.setStatus(
        'Your edits are not being saved: this browser refused to store them (its storage for this site is full or disabled), so a reload loses them. Share makes a link that keeps them.',
      );
    saveFailed = !saved;
  };
  let editor: PlaygroundEditor | undefined;
  let code = cfg.code; // what runs until the editor is open
  let errorMarks: { line: number; column?: number; message: string }[] = [];
  const markErrors = (marks: typeof errorMarks) => {
    errorMarks = marks;
    editor?.markErrors(marks);
  };
  let editorLoad: Promise<PlaygroundEditor> | undefined;
  function openEditor(): Promise<PlaygroundEditor> {
    editorLoad ??= (async () => {
      const { createEditor } = await import('./monaco-editor.ts');
      const opened = await createEditor(host, code, {
        label: `${cfg.title}: playground code editor. Ctrl+Enter or Cmd+Enter runs it.`,
        onChange: keepEdits,
        onRun: () => (cfg.requestRun ? cfg.requestRun() : void run()),
      });
      listing.replaceWith(host);
      editor = opened;
      opened.markErrors(errorMarks);
      return opened;
    })().catch((e: unknown) => {
      editorLoad = undefined; // the next focus or jump tries again
      throw e;
    });
    return editorLoad;
  }
  const getCode = () => editor?.getCode() ?? code;
  const setCode = (next: string) => {
    if (editor) return editor.setCode(next); // its onChange saves
    code = next;
    keepEdits(next);
  };
  runButton.after(stopButton, resetButton, shareButton);
  root.append(output.root, stepReport, timeline);
  output.root.hidden = true;

  resetButton.addEventListener('click', () => {
    if (getCode() !== cfg.original && !confirm('Discard your edits and restore the original code?'))
      return;
    setCode(cfg.original);
    cfg.setStatus('Restored the original code.');
  });
  shareButton.addEventListener('click', async () => {
    try {
      const url = await shareUrl(cfg.id, getCode());
      history.replaceState(null, '', url);
      await navigator.clipboard.writeText(url).catch(() => {
        throw new Error('clipboard');
      });
      cfg.setStatus('Link copied. It opens this code in the editor without running it.');
    } catch (e) {
      cfg.setStatus(
        (e as Error).message === 'clipboard'
          ? 'The link is in the address bar (the clipboard was not available). It opens this code without running it.'
          : `Could not make a link: ${(e as Error).message}`,
      );
    }
  });
  const stop = () => {
    stopRequested = active;
    running?.stop();
  };
  stopButton.addEventListener('click', stop);

  /** The embed's straggler plan, kept to ranks that exist in this run. */
  function stragglers(worldSize: number): { slowdown?: Record<number, number> } {
    if (!root.dataset.slowdown) return {};
    const plan = JSON.parse(root.dataset.slowdown) as Record<string, number>;
    const kept = Object.entries(plan).filter(([rank]) => Number(rank) < worldSize);
    return kept.length ? { slowdown: Object.fromEntries(kept) } : {};
  }

  async function run(): Promise<void> {
    if (active) return;
    active = true;
    stopRequested = false;
    const worldSize = chosenWorld(root);
    const simulated = clusterSelection(root);
    const code = getCode();
    output.root.hidden = false;
    output.reset(worldSize);
    output.setClock(simulated ? describeSelection(simulated) : null);
    output.clearNotices();
    markErrors([]);
    timeline.hidden = true;
    stepReport.hidden = true;
    runButton.disabled = true;
    stopButton.disabled = false;
    const marks: { line: number; column?: number; message: string }[] = [];
    const ranks = `${worldSize} rank${worldSize === 1 ? '' : 's'}`;
    const where = simulated ? `${ranks}, timed as ${describeSelection(simulated)}` : ranks;
    cfg.setStatus(`Starting ${where}…`);
    let started = false;
    try {
      const { startCluster } = await cluster;
      // The page draws the reset output in its own task before the ranks start in theirs: at 1,024 ranks the
      // two together (a new folded view, the chapter's layout, the shared memory and the workers) made one long task.
      await new Promise((resolve) => setTimeout(resolve, 0));
      running = startCluster(
        {
          code,
          worldSize,
          backend: cfg.backend,
          ...(cfg.checks ? { checks: cfg.checks } : {}),
          ...(simulated ? { cluster: { ...simulated, ...stragglers(worldSize) } } : {}),
        },
        (e: ClusterEvent) => {
          if (e.type === 'backend' && !started) {
            started = true;
            cfg.setStatus(`Running on ${where}…`);
          }
          if (e.type === 'error' && e.line) {
            marks.push({ line: e.line, column: e.column, message: `rank ${e.rank}: ${e.message}` });
            markErrors(marks);
          }
          output.add(e);
        },
      );
      const { record } = running;
      output.attach(record);
      if (stopRequested) running.stop();
      const result = await running.done;
      output.flushNow();
      const secs = `${(result.durationMs / 1000).toFixed(2)} s`;
      if (result.reason === 'compile-error' && result.error) {
        const at = result.error.line
          ? ` (line ${result.error.line}${result.error.column ? `, column ${result.error.column}` : ''})`
          : '';
        output.notice(`${result.error.message}${at}. No rank was started.`, 'error', result.error);
        if (result.error.line)
          markErrors([
            { line: result.error.line, column: result.error.column, message: result.error.message },
          ]);
        cfg.setStatus('The code has a syntax error; fix it and run again.');
      } else if (result.reason === 'stopped') {
        output.notice('Stopped: every rank was terminated.', 'info');
        cfg.setStatus(`Stopped after ${secs}.`);
      } else if (result.reason === 'timeout') {
        output.notice(result.error?.message ?? 'The run hit its time limit.', 'error');
        cfg.setStatus(`Timed out after ${secs}.`);
      } else {
        cfg.setStatus(
          result.ok
            ? `Finished in ${secs} of real time on ${where}.`
            : `Failed after ${secs}: see the rank panes.`,
        );
      }
      // Exercises grade runs on what each rank itself printed (its own channel), never on the view's text.
      root.dispatchEvent(
        new CustomEvent('ranks:run', {
          bubbles: true,
          detail: { result, logs: record.logs, record },
        }),
      );
      if (result.reason !== 'compile-error') {
        const body = timeline.querySelector<HTMLElement>('.pg-timeline-body')!;
        const summary = timeline.querySelector('summary')!;
        if (simulated) {
          const name = describeSelection(simulated);
          summary.textContent = 'Timeline in virtual time: per rank, communication above compute';
          renderVirtualTimeline(body, record.virtualTrace, worldSize, {
            clusterName: name,
            total: record.virtualTraceTotal,
            reportedSteps: record.virtualSteps.map((s) => s.step),
            gpusPerNode: simulated.gpusPerNode,
            arrivals: (step) => record.arrivals(step),
          });
          renderStepReport(stepReport, record.virtualSteps, name);
          stepReport.hidden = false;
        } else {
          summary.textContent = 'Timeline of collectives (real time on this machine)';
          renderTimeline(body, record.trace, worldSize, record.traceTotal);
        }
        timeline.hidden = false;
      }
    } catch (e) {
      output.notice(
        `Could not start the ranks: ${e instanceof Error ? e.message : String(e)}`,
        'error',
      );
      cfg.setStatus('Could not start the ranks.');
    } finally {
      running = undefined;
      active = false;
      runButton.disabled = false;
      stopButton.disabled = true;
    }
  }

  return { run, stop, openEditor, getCode, setCode, output };
}
