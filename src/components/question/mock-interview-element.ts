/**
 * <ranks-mock-interview>: runs a mock interview on the page /questions/mock/ renders: setup, one card
 * at a time against the clock, then the summary (scoring in src/lib/questions/mock-interview.ts).
 */
import { gradeChoice } from '../../lib/questions/choice-grader';
import { gradeCodeRun, type RunSummary } from '../../lib/questions/code-checks';
import {
  drawInterview,
  summarise,
  cardScore,
  type CardResult,
  type Level,
  type MockCard,
} from '../../lib/questions/mock-interview';

type Exercise =
  | {
      kind: 'numeric';
      prompt: string;
      value: number;
      unit: string;
      tolerance: number;
      mistakes: { value: number; why: string }[];
    }
  | {
      kind: 'single' | 'multiple';
      prompt: string;
      options: { text: string; correct: boolean; explanation: string }[];
    };
type BankCard = MockCard & { chapterHref: string; exercises: Exercise[]; codeParts: number };

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<HTMLElementTagNameMap[K]> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const node: HTMLElementTagNameMap[K] = document.createElement(tag);
  Object.assign(node, props);
  node.append(...children);
  return node;
}

/** Runs the interview: setup, one card at a time against the clock, then the summary. */
class MockInterview extends HTMLElement {
  private bank: BankCard[] = [];
  private drawn: BankCard[] = [];
  private results: CardResult[] = [];
  private index = 0;
  private deadline = 0;
  private tick = 0;
  /** Cards whose code part was solved in this interview (a part counts once however often it runs). */
  private codeSolved = new Set<string>();

  connectedCallback() {
    this.bank = JSON.parse(this.dataset.bank!) as BankCard[];
    const setup = this.querySelector<HTMLFormElement>('[data-setup]')!;
    setup.addEventListener('submit', (e) => {
      e.preventDefault();
      const f = new FormData(setup);
      this.start(Number(f.get('count')), f.get('level') as Level, Number(f.get('minutes')));
    });
    this.querySelector('[data-end]')!.addEventListener('click', () => this.finish());
    // Code parts: the playground reports each run; graded as on the card page, counted once when right.
    this.querySelectorAll<HTMLElement>('[data-code-for]').forEach((block) => {
      block.addEventListener('ranks:run', (e) => {
        const v = gradeCodeRun((e as CustomEvent<RunSummary>).detail);
        const feedback = block.querySelector<HTMLElement>('[data-feedback]')!;
        feedback.textContent = v.message;
        feedback.dataset.result = v.status === 'correct' ? 'correct' : 'wrong';
        block
          .querySelector('[data-failures]')!
          .replaceChildren(...v.failures.map((f) => el('li', { textContent: f })));
        const result = this.results.find((r) => r.card.id === block.dataset.codeFor);
        if (v.status === 'correct' && result && !this.codeSolved.has(result.card.id)) {
          this.codeSolved.add(result.card.id);
          result.exercisesRight++;
        }
      });
    });
    this.querySelector('[data-again]')!.addEventListener('click', () => {
      this.querySelector<HTMLElement>('[data-summary]')!.hidden = true;
      setup.hidden = false;
      setup.querySelector('button')!.focus();
    });
  }

  private start(count: number, level: Level, minutes: number) {
    this.codeSolved.clear();
    this.drawn = drawInterview(this.bank, count, level) as BankCard[];
    this.results = this.drawn.map((card) => ({
      card,
      covered: [],
      exercisesRight: 0,
      exercisesTotal: card.exercises.length + card.codeParts,
      answered: false,
    }));
    this.index = 0;
    this.deadline = Date.now() + count * minutes * 60_000;
    this.querySelector<HTMLElement>('[data-setup]')!.hidden = true;
    this.querySelector<HTMLElement>('[data-stage]')!.hidden = false;
    this.tick = window.setInterval(() => this.paintTimer(), 1000);
    this.paintTimer();
    this.show();
  }

  private paintTimer() {
    const left = Math.max(0, Math.round((this.deadline - Date.now()) / 1000));
    this.querySelector('[data-timer]')!.textContent =
      `${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')} left (this machine's clock)`;
    if (left === 0) this.finish();
  }

  /** Renders the current card: its graded parts, a free answer, then the rubric to tick. */
  private show() {
    const card = this.drawn[this.index]!;
    const result = this.results[this.index]!;
    const box = this.querySelector<HTMLElement>('[data-card]')!;
    this.querySelector('[data-progress]')!.textContent =
      `Question ${this.index + 1} of ${this.drawn.length}`;
    const heading = el('h2', { id: 'mock-question', tabIndex: -1, textContent: card.question });
    const graded = card.exercises.map((ex, i) => this.exercise(ex, i, result));
    const answer = el('textarea', { id: 'mock-answer', rows: 5, placeholder: 'Your answer…' });
    const rubric = el(
      'fieldset',
      { hidden: true, className: 'rubric' },
      el(
        'legend',
        {},
        el('strong', { textContent: 'Must mention' }),
        ': tick what your answer covered',
      ),
      el(
        'ul',
        { className: 'checklist' },
        ...card.mustMention.map((m, i) => {
          const box = el('input', { type: 'checkbox', value: String(i) });
          box.addEventListener('change', () => {
            result.covered = box.checked
              ? [...result.covered, i]
              : result.covered.filter((x) => x !== i);
          });
          return el('li', {}, el('label', {}, box, ` ${m}`));
        }),
      ),
    );
    const last = this.index === this.drawn.length - 1;
    const next = el('button', {
      type: 'button',
      className: 'button primary',
      hidden: true,
      textContent: last ? 'Finish and see the summary' : 'Next question',
    });
    const compare = el('button', {
      type: 'button',
      className: 'button',
      textContent: 'Done: compare with the rubric',
    });
    compare.addEventListener('click', () => {
      result.answered = true;
      rubric.hidden = false;
      next.hidden = false;
      compare.hidden = true;
      rubric.querySelector('input')?.focus();
    });
    next.addEventListener('click', () => {
      if (last) return this.finish();
      this.index++;
      this.show();
    });
    box.replaceChildren(
      heading,
      el('p', {
        className: 'meta',
        textContent: `Difficulty ${card.difficulty} · ${card.chapterTitle}`,
      }),
      ...graded,
    );
    // The card's code parts (rendered by the page, one block per exercise) show below its other parts.
    this.querySelectorAll<HTMLElement>('[data-code-for]').forEach((b) => {
      b.hidden = b.dataset.codeFor !== card.id;
    });
    this.querySelector<HTMLElement>('[data-card-answer]')!.replaceChildren(
      el('label', { htmlFor: 'mock-answer', textContent: 'Your answer, as you would say it' }),
      answer,
      el('p', {}, compare),
      rubric,
      el('p', {}, next),
    );
    heading.focus();
  }

  private exercise(ex: Exercise, i: number, result: CardResult): HTMLElement {
    const feedback = el('p', { className: 'ex-feedback', role: 'status' });
    feedback.setAttribute('aria-live', 'polite');
    let right = false;
    const settle = (ok: boolean) => {
      if (ok && !right) result.exercisesRight++;
      right ||= ok;
      feedback.dataset.result = ok ? 'correct' : 'wrong';
    };
    if (ex.kind === 'numeric') {
      const id = `mock-ex-${i}`;
      const input = el('input', { id, type: 'text', autocomplete: 'off', spellcheck: false });
      const check = el('button', { type: 'button', className: 'button', textContent: 'Check' });
      const run = async () => {
        const { gradeQuantity } = await import('../../lib/questions/quantity-grader');
        const v = gradeQuantity(input.value, ex.value, ex.unit, ex.tolerance, ex.mistakes);
        feedback.textContent = v.message;
        if (v.status !== 'invalid') settle(v.status === 'correct');
      };
      check.addEventListener('click', () => void run());
      input.addEventListener('keydown', (e) => {
        if (e.key === 'Enter') void run();
      });
      return el(
        'div',
        { className: 'exercise' },
        el('label', { htmlFor: id, className: 'ex-prompt', textContent: ex.prompt }),
        el('div', { className: 'ex-row' }, input, check),
        feedback,
      );
    }
    const name = `mock-choice-${i}`;
    const inputs = ex.options.map((o, k) =>
      el('input', { type: ex.kind === 'single' ? 'radio' : 'checkbox', name, value: String(k) }),
    );
    const check = el('button', { type: 'button', className: 'button', textContent: 'Check' });
    check.addEventListener('click', () => {
      const chosen = inputs.flatMap((inp, k) => (inp.checked ? [k] : []));
      const g = gradeChoice(ex.options, chosen);
      if (g.status === 'invalid') return void (feedback.textContent = 'Choose an option first.');
      settle(g.status === 'correct');
      feedback.textContent =
        g.status === 'correct'
          ? 'Correct.'
          : `Not quite: ${
              chosen
                .filter((k) => !ex.options[k]!.correct)
                .map((k) => ex.options[k]!.explanation)
                .join(' ') || 'a right option is missing.'
            }`;
    });
    const prompt = ex.prompt.replace(/\s*\((choose all that apply|choose one)\)(?=\W*$)/i, '');
    return el(
      'fieldset',
      { className: 'exercise' },
      el('legend', {
        className: 'ex-prompt',
        textContent: `${prompt} (${ex.kind === 'single' ? 'choose one' : 'choose all that apply'})`,
      }),
      el(
        'ul',
        { className: 'options' },
        ...ex.options.map((o, k) => el('li', {}, el('label', {}, inputs[k]!, ` ${o.text}`))),
      ),
      check,
      feedback,
    );
  }

  private finish() {
    window.clearInterval(this.tick);
    this.querySelectorAll<HTMLElement>('[data-code-for]').forEach((b) => (b.hidden = true));
    const s = summarise(this.results);
    const pct = (x: number) => `${Math.round(x * 100)} %`;
    const bankOf = (id: string) => this.bank.find((c) => c.id === id)!;
    const body = this.querySelector<HTMLElement>('[data-summary-body]')!;
    body.replaceChildren(
      el('p', {
        textContent: `Overall: ${pct(s.score)} over ${this.results.length} questions (half rubric, half graded parts where a card has them).`,
      }),
      el(
        'ol',
        {},
        ...this.results.map((r) =>
          el(
            'li',
            {},
            el('a', { href: `/questions/${r.card.id}/`, textContent: r.card.question }),
            ` — ${r.answered ? `${r.covered.length} of ${r.card.mustMention.length} points${r.exercisesTotal ? `, ${r.exercisesRight} of ${r.exercisesTotal} graded parts right` : ''}: ${pct(cardScore(r))}` : 'not answered'}`,
          ),
        ),
      ),
      el('h3', { textContent: 'Weakest topics' }),
      s.weakestTopics.length
        ? el(
            'ul',
            {},
            ...s.weakestTopics.map((t) => el('li', { textContent: `${t.topic}: ${pct(t.score)}` })),
          )
        : el('p', { textContent: 'None below 70 %: well done.' }),
      el('h3', { textContent: 'What to reread' }),
      s.reread.length
        ? el(
            'ul',
            {},
            ...s.reread.map((r) => {
              const href = this.results
                .map((x) => bankOf(x.card.id))
                .find((c) => c.chapter === r.chapter)!.chapterHref;
              return el(
                'li',
                {},
                el('a', { href, textContent: r.chapterTitle }),
                el('ul', {}, ...r.missed.map((m) => el('li', { textContent: `missed: ${m}` }))),
              );
            }),
          )
        : el('p', { textContent: 'Nothing: every answer scored 70 % or more.' }),
    );
    this.querySelector<HTMLElement>('[data-stage]')!.hidden = true;
    const summary = this.querySelector<HTMLElement>('[data-summary]')!;
    summary.hidden = false;
    summary.querySelector<HTMLElement>('h2')!.focus();
  }
}
customElements.define('ranks-mock-interview', MockInterview);
