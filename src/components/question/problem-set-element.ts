/**
 * <ranks-problem-set>: checks each step of a worked problem with the quantity grader, which is
 * fetched on the first Check (it carries mathjs), and opens the step's worked solution once it is right.
 */
import type { Mistake } from '../../lib/questions/quantity-grader';

class ProblemSetElement extends HTMLElement {
  connectedCallback() {
    this.querySelectorAll<HTMLElement>('[data-step]').forEach((step) => {
      const input = step.querySelector<HTMLInputElement>('input')!;
      const feedback = step.querySelector<HTMLElement>('[data-feedback]')!;
      const check = async () => {
        const { gradeQuantity } = await import('../../lib/questions/quantity-grader');
        const mistakes = JSON.parse(step.dataset.mistakes ?? '[]') as Mistake[];
        const v = gradeQuantity(
          input.value,
          Number(step.dataset.value),
          step.dataset.unit ?? '',
          Number(step.dataset.tolerance),
          mistakes,
        );
        feedback.textContent = v.message;
        feedback.dataset.result =
          v.status === 'correct' ? 'correct' : v.status === 'invalid' ? 'info' : 'wrong';
        input.setAttribute('aria-invalid', String(v.status !== 'correct'));
        if (v.status === 'correct') step.querySelector('details')!.open = true;
      };
      step.querySelector('[data-check]')!.addEventListener('click', () => void check());
      input.addEventListener('keydown', (e) => {
        if (e.key === 'Enter') void check();
      });
    });
  }
}
customElements.define('ranks-problem-set', ProblemSetElement);
