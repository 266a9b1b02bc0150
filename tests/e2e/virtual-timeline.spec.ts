import { readFile } from 'node:fs/promises';
import { test, expect, type Locator } from '@playwright/test';
import { expectAxeCleanInBothThemesHere } from './helpers/axe-both-themes';
import { runAndWait } from './helpers/run-and-wait';

// The virtual timeline of chapter 4's DDP overlap playground, run once on a simulated 2-GPU node (≈ 30 s on
// 2 busy cores): a bucket's all-reduce overlaps backward on the drawn lanes, the step picker, zoom by
// button and key, labelled spans and a legend, axe clean in both themes, usable at 390 px, and the
// trace download is Chrome trace-event JSON with one thread per rank stream.
const INSIDE_DDP = '/chapters/inside-ddp/';

interface Bar {
  rank: number;
  lane: string;
  kind: string;
  collective: string | null;
  step: number;
  start: number;
  end: number;
}

async function bars(root: Locator): Promise<Bar[]> {
  return root.locator('.pg-tl-view .pg-bar').evaluateAll((nodes) =>
    nodes.map((n) => ({
      rank: Number(/^rank (\d+),/.exec(n.getAttribute('aria-label') ?? '')?.[1]),
      lane: n.getAttribute('data-lane')!,
      kind: n.getAttribute('data-kind')!,
      collective: n.getAttribute('data-collective'),
      step: Number(n.getAttribute('data-step')),
      start: Number(n.getAttribute('data-start')),
      end: Number(n.getAttribute('data-end')),
    })),
  );
}

/** Pairs of an all-reduce on a rank's comm lane and a backward span on its compute lane that share time. */
function overlaps(drawn: Bar[]): [Bar, Bar][] {
  const pairs: [Bar, Bar][] = [];
  for (const c of drawn)
    if (c.lane === 'comm' && c.collective === 'all-reduce')
      for (const b of drawn)
        if (
          b.rank === c.rank &&
          b.lane === 'compute' &&
          b.kind === 'backward' &&
          Math.min(b.end, c.end) - Math.max(b.start, c.start) > 0
        )
          pairs.push([c, b]);
  return pairs;
}

test('the virtual timeline shows a bucket all-reduce overlapping backward, by step, zoomable, labelled, and downloads a Perfetto trace', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await page.goto(INSIDE_DDP);
  const root = page.locator('main [data-playground]').filter({
    has: page.getByRole('heading', { name: 'DDP overlap on and off, in virtual time' }),
  });
  await root.getByLabel('GPUs per node').selectOption('2');
  await root.getByLabel('Nodes').selectOption('1');
  await runAndWait(root, { timeout: 150_000 });
  // Which clock: the output says it, next to its buttons.
  await expect(root.locator('.pg-clock-note')).toContainText('virtual time on a100-hdr');
  // The panes give each rank room (two columns at most), and Combined view really replaces them.
  const paneWidth = (await root.locator('[data-rank="0"]').boundingBox())!.width;
  expect(paneWidth).toBeGreaterThan(300);
  await root.getByRole('button', { name: 'Combined view' }).click();
  await expect(root.locator('.pg-combined')).toBeVisible();
  await expect(root.locator('.pg-panes')).toBeHidden();
  await expect(root.locator('[data-rank="0"]')).toBeHidden();
  await root.getByRole('button', { name: 'Combined view' }).click();
  await expect(root.locator('[data-rank="0"]')).toBeVisible();
  await expect(root.locator('.pg-combined')).toBeHidden();

  const timeline = root.locator('.pg-timeline');
  await timeline.locator('summary').click();

  // Opens on one step; its spans all belong to it, on separate comm and compute lanes of both ranks.
  const picker = timeline.getByRole('combobox', { name: 'Step' });
  const opened = await picker.inputValue();
  expect(opened).not.toBe('all');
  let drawn = await bars(root);
  expect(drawn.every((b) => b.step === Number(opened))).toBe(true);
  for (const rank of [0, 1])
    for (const lane of ['comm', 'compute'])
      expect(
        drawn.some((b) => b.rank === rank && b.lane === lane),
        `rank ${rank} ${lane}`,
      ).toBe(true);
  // Comm bars sit in their own lane, above the compute lane of the same rank.
  const y = async (lane: string) =>
    Number(
      await root.locator(`.pg-tl-view .pg-bar[data-lane="${lane}"]`).first().getAttribute('y'),
    );
  expect(await y('comm')).toBeLessThan(await y('compute'));

  // The lesson: with overlap on, an all-reduce (a bucket's, once the runtime names buckets) runs on the comm
  // lane while backward still runs on the compute lane. Some step of the run shows it; find it with the picker.
  const steps = await picker
    .locator('option')
    .evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
  let overlapStep: string | undefined;
  for (const s of steps.filter((v) => v !== 'all').reverse()) {
    await picker.selectOption(s);
    drawn = await bars(root);
    expect(drawn.every((b) => b.step === Number(s))).toBe(true);
    if (overlaps(drawn).length) {
      overlapStep = s;
      break;
    }
  }
  expect(overlapStep, 'a step where an all-reduce overlaps backward').toBeDefined();
  // The drawn bars overlap horizontally too: the all-reduce's x range meets the backward bar's.
  const [comm, back] = overlaps(drawn)[0]!;
  const box = async (b: Bar) => {
    const bar = root
      .locator(`.pg-tl-view .pg-bar[data-lane="${b.lane}"][data-start="${b.start}"]`)
      .and(root.locator(`[aria-label^="rank ${b.rank},"]`));
    return (await bar.first().boundingBox())!;
  };
  const [cb, bb] = [await box(comm), await box(back)];
  expect(Math.min(cb.x + cb.width, bb.x + bb.width) - Math.max(cb.x, bb.x)).toBeGreaterThan(0);
  expect(cb.y + cb.height).toBeLessThanOrEqual(bb.y + 1);

  // Labels: the spans say what they are, in the bars and in what focus or hover shows.
  await expect(root.locator('.pg-tl-view .pg-bar-text').first()).toBeVisible();
  const texts = await root.locator('.pg-tl-view .pg-bar-text').allTextContents();
  // Bars wide enough carry their label as text (per-layer backward spans may be too narrow; forward is not).
  expect(texts.some((t) => /^(forward|backward|optimizer)/.test(t))).toBe(true);
  // Every bar names what it is in its accessible name (and hover title).
  const names = await root
    .locator('.pg-tl-view .pg-bar')
    .evaluateAll((bs) => bs.map((b) => b.getAttribute('aria-label')!));
  expect(names.every((n) => /^rank \d+, (comm|compute): \S/.test(n))).toBe(true);
  expect(names.some((n) => /compute: backward/.test(n))).toBe(true);
  // Hover shows the detail (focus does too, once a step has few enough bars to tab through).
  const allReduces = root.locator('.pg-tl-view .pg-bar[data-collective="all-reduce"]');
  const widths = await allReduces.evaluateAll((bs) =>
    bs.map((b) => Number(b.getAttribute('width'))),
  );
  await allReduces.nth(widths.indexOf(Math.max(...widths))).hover();
  await expect(root.locator('.pg-tl-detail')).toContainText(/all-reduce.*B/);
  await expect(root.locator('.pg-tl-detail')).toContainText('virtual');
  // A legend entry for every colour drawn.
  const legend = await root.locator('.pg-legend span').allTextContents();
  expect(legend.some((t) => t.startsWith('backward'))).toBe(true);
  expect(legend.some((t) => t.startsWith('all-reduce'))).toBe(true);
  await expect(root.locator('.pg-tl-hint')).toContainText('+ and − zoom');

  // Zoom: the button and the + key halve the window; ← pans it; 0 fits the step again.
  const svgLabel = () => root.locator('.pg-tl-view svg').getAttribute('aria-label');
  const full = await svgLabel();
  await timeline.getByRole('button', { name: 'Zoom in' }).click();
  await expect.poll(svgLabel).toContain('(zoomed)');
  await root.locator('.pg-tl-view').focus();
  await page.keyboard.press('+');
  const zoomed = await svgLabel();
  await page.keyboard.press('ArrowRight');
  await expect.poll(svgLabel).not.toBe(zoomed);
  await page.keyboard.press('0');
  await expect.poll(svgLabel).toBe(full);
  await picker.selectOption('all');
  expect(new Set((await bars(root)).map((b) => b.step)).size).toBeGreaterThan(1);
  await expect(root.locator('.pg-tl-view svg text', { hasText: /^step 1$/ })).toHaveCount(1);
  await picker.selectOption(overlapStep!);

  // Download trace: Chrome trace-event JSON, X and M events, one named thread per rank stream.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    timeline.getByRole('button', { name: /Download trace/ }).click(),
  ]);
  const trace = JSON.parse(await readFile((await download.path())!, 'utf8')) as {
    traceEvents: {
      ph: string;
      name: string;
      tid: number;
      pid: number;
      ts?: number;
      dur?: number;
      args?: { name?: string };
    }[];
    displayTimeUnit: string;
  };
  expect(trace.displayTimeUnit).toBe('ms');
  expect(trace.traceEvents.every((e) => e.ph === 'X' || e.ph === 'M')).toBe(true);
  expect(trace.traceEvents.every((e) => Number.isInteger(e.pid) && Number.isInteger(e.tid))).toBe(
    true,
  );
  const x = trace.traceEvents.filter((e) => e.ph === 'X');
  expect(x.length).toBeGreaterThan(0);
  expect(x.every((e) => typeof e.ts === 'number' && typeof e.dur === 'number' && e.dur >= 0)).toBe(
    true,
  );
  const threads = trace.traceEvents
    .filter((e) => e.name === 'thread_name')
    .map((e) => e.args!.name)
    .sort();
  expect(threads).toEqual(['rank 0 comm', 'rank 0 compute', 'rank 1 comm', 'rank 1 compute']);

  // Axe clean in both themes, the timeline and its controls included.
  await expectAxeCleanInBothThemesHere(page, { include: '.pg-timeline' });
  // At 390 px: the controls stay on screen, the lanes scroll inside their own box, not the page.
  await page.setViewportSize({ width: 390, height: 800 });
  await root.locator('.pg-tl-view').scrollIntoViewIfNeeded();
  for (const control of [picker, timeline.getByRole('button', { name: 'Zoom in' })]) {
    const b = (await control.boundingBox())!;
    expect(b.x).toBeGreaterThanOrEqual(0);
    expect(b.x + b.width).toBeLessThanOrEqual(390);
  }
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  const label = (await root.locator('.pg-tl-view .pg-lane-label').first().boundingBox())!;
  expect(label.height).toBeGreaterThanOrEqual(8); // text no smaller than ~9 px on a phone
});

test("chapter 3's scaling plot: ticking Overlap redraws the caption and the table with the curve @pages", async ({
  page,
}) => {
  await page.goto('/chapters/data-parallel-from-scratch/');
  const w = page.locator('ranks-scaling-plot');
  const caption = w.locator('figcaption');
  await expect(caption).toContainText('without overlap 64 ranks keep');
  await expect(caption).toContainText('on 1 to 8 nodes of 8× A100');
  await expect(caption).not.toContainText('Two nodes');
  const lastRow = w.locator('.sc-table tbody tr').last();
  const before = await lastRow.locator('td').allTextContents();
  await w.getByLabel('Overlap the all-reduce with the backward pass').check();
  await expect(caption).toContainText(
    'with the all-reduce overlapped behind the backward pass 64 ranks keep',
  );
  await expect(lastRow.locator('td').nth(5)).not.toHaveText(before[5]!);
  // The caption's percentage is the table's last row.
  const pct = await lastRow.locator('td').nth(5).textContent();
  await expect(caption).toContainText(`64 ranks keep ${pct} of linear scaling`);
  await w.getByLabel('Overlap the all-reduce with the backward pass').uncheck();
  await expect(lastRow.locator('td')).toHaveText(before);
});
