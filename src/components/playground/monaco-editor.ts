/**
 * Monaco, trimmed to what a playground needs: the editor with its standard features and TypeScript
 * only (no other languages in the bundle), with typings for 'ranks' and '@tensorflow/tfjs'.
 */
import * as monaco from 'monaco-editor/editor';
import 'monaco-editor/features/register.all';
import 'monaco-editor/languages/definitions/typescript/register';
import {
  typescriptDefaults,
  ModuleKind,
  ModuleResolutionKind,
  ScriptTarget,
} from 'monaco-editor/languages/features/typescript/register';
import EditorWorker from 'monaco-editor/editor/editor.worker?worker';
import TypeScriptWorker from 'monaco-editor/languages/features/typescript/ts.worker?worker';

export { monaco };

(globalThis as { MonacoEnvironment?: unknown }).MonacoEnvironment = {
  // Only two workers ship: TypeScript's language service and the plain editor worker.
  getWorker: (_moduleId: string, label: string) =>
    label === 'typescript' || label === 'javascript' ? new TypeScriptWorker() : new EditorWorker(),
};

let typingsLoaded: Promise<void> | undefined;
/** Loads the generated typings once per page (about 1.5 MB of .d.ts, fetched only with the editor). */
function loadTypings(): Promise<void> {
  typingsLoaded ??= import('virtual:ranks-editor-types').then(({ default: files }) => {
    typescriptDefaults.setCompilerOptions({
      target: ScriptTarget.ES2020,
      module: ModuleKind.ESNext,
      moduleResolution: ModuleResolutionKind.NodeJs,
      strict: true,
      noEmit: true,
      allowNonTsExtensions: true,
      skipLibCheck: true,
      lib: ['es2022', 'dom'],
    });
    typescriptDefaults.setExtraLibs(
      Object.entries(files as Record<string, string>).map(([filePath, content]) => ({
        filePath,
        content,
      })),
    );
  });
  return typingsLoaded;
}

// Monaco's stock line-number greys miss WCAG AA contrast; these themes darken (or lighten) them.
monaco.editor.defineTheme('ranks-light', {
  base: 'vs',
  inherit: true,
  rules: [],
  colors: {
    'editorLineNumber.foreground': '#57606a',
    'editorLineNumber.dimmedForeground': '#57606a',
    'editorLineNumber.activeForeground': '#1f2328',
  },
});
monaco.editor.defineTheme('ranks-dark', {
  base: 'vs-dark',
  inherit: true,
  rules: [{ token: 'comment', foreground: '8fbf7f' }],
  colors: {
    'editorLineNumber.foreground': '#a0a8b4',
    'editorLineNumber.dimmedForeground': '#a0a8b4',
    'editorLineNumber.activeForeground': '#e6edf3',
  },
});
const themeName = () =>
  document.documentElement.dataset.theme === 'dark' ? 'ranks-dark' : 'ranks-light';
let modelCount = 0;

export interface PlaygroundEditor {
  editor: monaco.editor.IStandaloneCodeEditor;
  getCode(): string;
  setCode(code: string): void;
  markErrors(errors: { line: number; column?: number; message: string }[]): void;
  reveal(line: number, column?: number): void;
  dispose(): void;
}

export async function createEditor(
  container: HTMLElement,
  code: string,
  handlers: { onChange(code: string): void; onRun(): void; label: string },
): Promise<PlaygroundEditor> {
  // Beside the TypeScript worker, not before the editor: it only refines diagnostics. The mark lets
  // tests (and anyone timing the page) tell this one-off main-thread cost apart from a run's.
  void loadTypings().then(
    () => (container.dataset.typings = 'ready'),
    () => {
      typingsLoaded = undefined; // a failed download is tried again by the next editor that opens
      container.dataset.typings = 'failed';
    },
  );
  // Each playground is its own module file, so two playgrounds on a page do not share top-level names.
  const uri = monaco.Uri.parse(`file:///playground-${++modelCount}.ts`);
  const model = monaco.editor.createModel(code, 'typescript', uri);
  const editor = monaco.editor.create(container, {
    model,
    theme: themeName(),
    automaticLayout: true,
    minimap: { enabled: false },
    fontSize: 14,
    scrollBeyondLastLine: false,
    tabSize: 2,
    ariaLabel: handlers.label,
    fixedOverflowWidgets: true,
  });
  const onTheme = () => monaco.editor.setTheme(themeName());
  document.addEventListener('ranks:themechange', onTheme);
  editor.addAction({
    id: 'ranks.run',
    label: 'Run on all ranks',
    keybindings: [monaco.KeyMod.CtrlCmd | monaco.KeyCode.Enter],
    run: () => handlers.onRun(),
  });
  model.onDidChangeContent(() => {
    monaco.editor.setModelMarkers(model, 'ranks', []);
    handlers.onChange(model.getValue());
  });
  return {
    editor,
    getCode: () => model.getValue(),
    setCode: (c) => model.setValue(c),
    markErrors(errors) {
      monaco.editor.setModelMarkers(
        model,
        'ranks',
        errors.map((e) => {
          const line = Math.min(Math.max(1, e.line), model.getLineCount());
          const column = Math.max(1, e.column ?? model.getLineFirstNonWhitespaceColumn(line));
          return {
            severity: monaco.MarkerSeverity.Error,
            message: e.message,
            startLineNumber: line,
            startColumn: column,
            endLineNumber: line,
            endColumn: Math.max(column + 1, model.getLineMaxColumn(line)),
          };
        }),
      );
    },
    reveal(line, column = 1) {
      editor.revealLineInCenter(line);
      editor.setPosition({ lineNumber: line, column });
      editor.focus();
    },
    dispose() {
      document.removeEventListener('ranks:themechange', onTheme);
      editor.dispose();
      model.dispose();
    },
  };
}
