/**
 * Issue 30, point 3 and its Chromium "done when": the page at 1,024 ranks. A DDP program on h100-ndr,
 * 128 nodes × 8 GPUs (or as many nodes as the runtime's world limit allows): output folded, any rank
 * pickable, the timeline's rows and arrival band, the step report, and the main thread never blocked.
 */
import { test, expect, type Locator, type Page } from '@playwright/test';
import { openEditor, setCode } from './editor';
import { stopAndTime, watchLongTasks } from './helpers/main-thread';

const CHAPTER_9 = '/chapters/operating-at-scale/';

/** A small DDP step every rank prints the same way: the folded view's "ranks 1–1023: …". */
const DDP_PROGRAM = `import * as tf from '@tensorflow/tfjs';
import { dist, DDP, mlp, SGD } from 'ranks';

const x = tf.randomNormal([4, 8], 0, 1, 'float32', 1 + dist.rank);
const y = tf.randomNormal([4, 2], 0, 1, 'float32', 100 + dist.rank);
const ddp = await DDP(mlp([8, 16, 2], { seed: 1 }), {
  optimizer: new SGD({ lr: 0.01 }),
  chargeAs: { model: 'llama-2-7b', tokensPerStep: 1024 * dist.worldSize },
});
for (let s = 0; s < 3; s++) await ddp.trainStep(x, y);
if (dist.rank === 0) console.log(\`world \${dist.worldSize}: three DDP steps\`);
console.log('weights in sync: true');
console.log(\`this is rank \${dist.rank}\`);
`;

/** Picks h100-ndr × 8 GPUs and the most nodes the page offers (128 at a 1,024-rank limit); returns the world. */
async function pickLargestWorld(root: Locator): Promise<number> {
  const max = Number(await root.getAttribute('data-max-world'));
  const nodes = Math.min(128, max / 8);
  await root.getByLabel('Cluster').selectOption('h100-ndr');
  await root.getByLabel('GPUs per node').selectOption('8');
  await root.getByLabel('Nodes').selectOption(String(nodes));
  const world = nodes * 8;
  await expect(root.locator('[data-cluster-world]')).toHaveText(
    `= ${world.toLocaleString('en')} ranks`,
  );
  await expect(root.locator('[data-cluster-note]')).toContainText('logical ranks');
  return world;
}

async function openScalePlayground(page: Page): Promise<Locator> {
  await page.goto(CHAPTER_9);
  const root = page.locator('[data-playground]').first();
  await openEditor(root);
  await setCode(page, root, DDP_PROGRAM);
  return root;
}

// Measures against the bounds (npm run bench:page): Run → Finished ≤ 30 s, no main-thread task over
// 200 ms while 1,024 ranks print and the views draw, Stop ≤ 0.5 s. On 2 shared cores these are the bar to
// report, not a gate for every change.
test('1,024 ranks on a preset: finished ≤ 30 s, folded output, any rank, percentile timeline, no long task, Stop ≤ 0.5 s @bench', async ({
  page,
}) => {
  test.setTimeout(300_000);
  const root = await openScalePlayground(page);
  const world = await pickLargestWorld(root);
  const longest = await watchLongTasks(page);
  const started = Date.now();
  await root.getByRole('button', { name: 'Run' }).click();
  await expect(root.locator('[data-status]')).toHaveText(/^(Finished|Failed|Timed out|Stopped)/, {
    timeout: 240_000,
  });
  const seconds = (Date.now() - started) / 1000;
  const status = (await root.locator('[data-status]').textContent())!;
  const longTask = await longest();
  console.log(
    `${world} ranks in Chromium: ${seconds.toFixed(1)} s wall from Run to ended (${status}); longest main-thread task ${longTask.toFixed(0)} ms`,
  );
  expect(status).toMatch(/^Finished/);
  // Output: rank 0 in full, the others folded, any rank a select away.
  const folded = root.locator('.pg-folded pre');
  await expect(folded).toContainText('[rank 0] this is rank 0');
  await expect(folded).toContainText(`[ranks 1–${world - 1}] weights in sync: true`);
  await root.getByLabel('Show rank').selectOption(String(world - 1));
  await expect(folded).toContainText(`[rank ${world - 1}] this is rank ${world - 1}`);
  // The step report and a timeline of a handful of rows over the arrival band.
  await expect(root.locator('.pg-step-report')).toContainText('Step report in virtual time on');
  await root.locator('.pg-timeline summary').click();
  await expect(root.locator('.pg-tl-arrival-band')).toHaveCount(1);
  expect(await root.locator('[data-lane-line="comm"]').count()).toBeLessThanOrEqual(6);
  expect(seconds).toBeLessThanOrEqual(30);
  expect(longTask).toBeLessThanOrEqual(200);
  // Stop mid-run ends every rank at once.
  await root.getByRole('button', { name: 'Run' }).click();
  await expect(root.locator('[data-status]')).toContainText('Running on', { timeout: 60_000 });
  const stopMs = await stopAndTime(root);
  console.log(`Stop at ${world} ranks: ${stopMs.toFixed(0)} ms`);
  expect(stopMs).toBeLessThanOrEqual(500);
});
