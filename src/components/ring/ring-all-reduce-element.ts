/** <ranks-ring-allreduce>: steps through the ring schedule with Prev/Next/Play, arrow keys, Home/End. */
import {
  ringAllReduceSchedule,
  ringFrames,
  type RingTraceEvent,
} from '../../lib/figures/ring-schedule';
import { ringFrame } from './ring-frame-view';

class RingAllReduceElement extends HTMLElement {
  private n = 4;
  private step = 0;
  private events: RingTraceEvent[] = [];
  private frames: number[][][] = [];
  private timer: number | undefined;

  connectedCallback(): void {
    this.n = Number(this.dataset.ranks ?? 4);
    this.load();
    this.q<HTMLSelectElement>('[data-ranks-select]').addEventListener('change', (e) => {
      this.n = Number((e.target as HTMLSelectElement).value);
      this.step = 0;
      this.load();
    });
    this.q('[data-prev]').addEventListener('click', () => this.go(this.step - 1));
    this.q('[data-next]').addEventListener('click', () => this.go(this.step + 1));
    this.q('[data-play]').addEventListener('click', () =>
      this.timer === undefined ? this.play() : this.pause(),
    );
    this.addEventListener('keydown', (e) => {
      if ((e.target as HTMLElement).tagName === 'SELECT') return;
      const to = {
        ArrowRight: this.step + 1,
        ArrowLeft: this.step - 1,
        Home: 0,
        End: 2 * (this.n - 1),
      }[e.key];
      if (to === undefined) return;
      e.preventDefault();
      this.pause();
      this.go(to);
    });
  }

  disconnectedCallback(): void {
    this.pause();
  }

  private q<T extends HTMLElement = HTMLElement>(sel: string): T {
    return this.querySelector<T>(sel)!;
  }

  private load(): void {
    this.events = ringAllReduceSchedule(this.n, Number(this.dataset.bytes ?? 4096));
    this.frames = ringFrames(this.n, this.events);
    this.render();
  }

  private go(step: number): void {
    this.step = Math.max(0, Math.min(2 * (this.n - 1), step));
    this.render();
  }

  private play(): void {
    if (this.step >= 2 * (this.n - 1)) this.go(0);
    const reduced = matchMedia('(prefers-reduced-motion: reduce)').matches;
    this.timer = window.setInterval(
      () => {
        if (this.step >= 2 * (this.n - 1)) return this.pause();
        this.go(this.step + 1);
      },
      reduced ? 1600 : 900,
    );
    this.setPlaying(true);
  }

  private pause(): void {
    if (this.timer !== undefined) window.clearInterval(this.timer);
    this.timer = undefined;
    this.setPlaying(false);
  }

  private setPlaying(on: boolean): void {
    const b = this.q('[data-play]');
    b.textContent = on ? 'Pause' : 'Play';
    b.setAttribute('aria-pressed', String(on));
  }

  private render(): void {
    const f = ringFrame(this.n, this.step, this.events, this.frames);
    this.q('[data-status]').textContent = f.status;
    this.q('[data-ring]').innerHTML = f.ringSvg;
    this.q('[data-grid]').innerHTML = f.gridHtml;
    this.q('[data-counter]').textContent = `${f.step} / ${f.steps}`;
    this.q('[data-prev]').setAttribute('aria-disabled', String(f.step === 0)); // stay focusable at the ends
    this.q('[data-next]').setAttribute('aria-disabled', String(f.step === f.steps));
    this.dataset.step = String(f.step);
  }
}

if (!customElements.get('ranks-ring-allreduce'))
  customElements.define('ranks-ring-allreduce', RingAllReduceElement);
