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
