import type { Locator, Page } from '@playwright/test';

/**
 * Records the page's main-thread long tasks (durations in ms) from now on, replacing any earlier recording;
 * returns a function that gives the longest so far.
 */
export async function watchLongTasks(page: Page): Promise<() => Promise<number>> {
  await page.evaluate(() => {
    const w = window as unknown as { __longTasks: number[]; __observer?: PerformanceObserver };
    w.__observer?.disconnect();
    w.__longTasks = [];
    w.__observer = new PerformanceObserver((list) =>
      w.__longTasks.push(...list.getEntries().map((e) => e.duration)),
    );
    w.__observer.observe({ type: 'longtask' });
  });
  return () => longestTask(page);
}

/** The longest main-thread task since watchLongTasks (ms). */
export const longestTask = (page: Page) =>
  page.evaluate(() => Math.max(0, ...(window as unknown as { __longTasks: number[] }).__longTasks));

/** Clicks a playground's Stop in the page and resolves with the milliseconds until its status says Stopped. */
export const stopAndTime = (root: Locator) =>
  root.evaluate(
    (el) =>
      new Promise<number>((resolve) => {
        const status = el.querySelector('[data-status]')!;
        const t0 = performance.now();
        const seen = () =>
          status.textContent!.startsWith('Stopped') && (resolve(performance.now() - t0), true);
        new MutationObserver(seen).observe(status, {
          childList: true,
          characterData: true,
          subtree: true,
        });
        el.querySelector<HTMLButtonElement>('.pg-stop')!.click();
      }),
  );

/** The page's longest main-thread task in a stretch: its wall time and its CPU time (ms). */
export interface LongestTask {
  wallMs: number;
  /** The main thread's own time in it (the trace's thread clock): what the page did, not time it waited for a core. */
  cpuMs: number;
}

/**
 * Records the page's main-thread tasks with a Chromium trace (RunTask events on the renderer's main thread);
 * returns a function that stops the trace and gives the longest task by wall time and by CPU time. On 2 cores
 * shared with other jobs a task's wall time includes the time the thread waited for a core, which moves by
 * hundreds of ms from one run to the next; its CPU time is the page's own work, which a freeze shows at any load.
 */
export async function traceMainThread(page: Page): Promise<() => Promise<LongestTask>> {
  const browser = page.context().browser()!;
  await browser.startTracing(page, { categories: ['disabled-by-default-devtools.timeline'] });
  return async () => {
    const { traceEvents } = JSON.parse((await browser.stopTracing()).toString()) as {
      traceEvents: {
        name: string;
        ph: string;
        pid: number;
        tid: number;
        dur?: number;
        tdur?: number;
        args?: { name?: string };
      }[];
    };
    const main = traceEvents.filter(
      (e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain',
    );
    const isMain = (e: { pid: number; tid: number }) =>
      main.some((m) => m.pid === e.pid && m.tid === e.tid);
    const tasks = traceEvents.filter((e) => e.name === 'RunTask' && e.ph === 'X' && isMain(e));
    return {
      wallMs: Math.max(0, ...tasks.map((t) => (t.dur ?? 0) / 1000)),
      cpuMs: Math.max(0, ...tasks.map((t) => (t.tdur ?? 0) / 1000)),
    };
  };
}
