import { test, expect } from '@playwright/test';
import {
  backendsOf,
  logsOf,
  runInDiagnostics as run,
  withSoftwareWebGpu,
} from './helpers/diagnostics-run';

const ALL_REDUCE = `import * as tf from '@tensorflow/tfjs';
import { dist } from 'ranks';
const sum = await dist.allReduce(tf.tensor([dist.rank + 1, 2 * dist.rank]));
console.log(JSON.stringify(Array.from(await sum.data())));`;

test.beforeEach(async ({ page }) => {
  await page.goto('/lab/diagnostics/');
  await expect(page.locator('[data-fact="isolated"]')).toHaveText('yes');
});

test('the self-test passes on 4 ranks in real Web Workers, each reporting its backend', async ({
  page,
}) => {
  await page.getByRole('button', { name: 'Run the self-test' }).click();
  await expect(page.locator('[data-status]')).toContainText('All ranks passed', {
    timeout: 60_000,
  });
  for (let r = 0; r < 4; r++) {
    await expect(page.locator(`[data-rank="${r}"]`)).toContainText('self-test: 6/6 passed');
    // No WebGPU adapter without the unsafe flag: WASM is the expected fallback, and it says why.
    await expect(page.locator(`[data-rank="${r}"] h2`)).toContainText('wasm');
  }
});

test('4 ranks all-reduce [rank+1, 2·rank] to [10, 12]; WASM fallback names the reason; CPU can be forced', async ({
  page,
}) => {
  const auto = await run(page, ALL_REDUCE, 4);
  expect(auto.result.ok).toBe(true);
  for (let r = 0; r < 4; r++) expect(logsOf(auto, r)).toEqual(['[10,12]']);
  const backends = auto.events.filter((e) => e.type === 'backend');
  expect(backends).toHaveLength(4);
  for (const b of backends) {
    expect(b.backend).toBe('wasm');
    expect(b.reason).toMatch(/webgpu unavailable/);
  }
  const cpu = await run(page, ALL_REDUCE, 4, 'cpu');
  expect(backendsOf(cpu)).toEqual(['cpu', 'cpu', 'cpu', 'cpu']);
  expect(logsOf(cpu, 3)).toEqual(['[10,12]']);
});

test('a syntax error is reported with its line before any rank starts', async ({ page }) => {
  const r = await run(page, 'const ok = 1;\nconst x: number = ;\n', 2);
  expect(r.result.reason).toBe('compile-error');
  expect(r.result.error?.line).toBe(2);
  expect(r.events).toEqual([]);
});

test('a rank that throws fails its peers fast, with its line and a message naming it', async ({
  page,
}) => {
  const code = `import * as tf from '@tensorflow/tfjs';
import { dist } from 'ranks';
if (dist.rank === 2) {
  throw new Error('boom on purpose');
}
await dist.allReduce(tf.tensor([1]));`;
  const started = Date.now();
  const r = await run(page, code, 4);
  expect(Date.now() - started).toBeLessThan(5_000);
  expect(r.result.ok).toBe(false);
  const own = r.events.find((e) => e.type === 'error' && e.rank === 2);
  expect(own?.message).toContain('boom on purpose');
  expect(own?.line).toBe(4);
  for (const peer of [0, 1, 3])
    expect(r.events.find((e) => e.type === 'error' && e.rank === peer)?.message).toContain(
      'rank 2 failed',
    );
});

test('an endless loop hits the time limit with a clear message and the page stays responsive', async ({
  page,
}) => {
  const r = await run(page, 'while (true) {}', 2, 'cpu', 1500);
  expect(r.result.reason).toBe('timeout');
  expect(r.result.error?.message).toMatch(/time limit/);
  expect(await page.evaluate(() => 1 + 1)).toBe(2);
});

test('WebGPU: with a software adapter, 2 ranks run on webgpu and all-reduce correctly', async ({
  baseURL,
}) => {
  await withSoftwareWebGpu(baseURL, async (page) => {
    const code = `import * as tf from '@tensorflow/tfjs';
import { dist } from 'ranks';
const x = tf.tensor2d([[1, 2], [3, 4]]).matMul(tf.tensor2d([[dist.rank + 1], [1]]));
const sum = await dist.allReduce(x);
console.log(JSON.stringify(Array.from(await sum.data())));`;
    const r = await run(page, code, 2, 'webgpu', 120_000);
    expect(r.result.ok, JSON.stringify(r.events.filter((e) => e.type === 'error'))).toBe(true);
    expect(backendsOf(r)).toEqual(['webgpu', 'webgpu']);
    // rank 0: [1·1+2, 3·1+4] = [3, 7]; rank 1: [1·2+2, 3·2+4] = [4, 10]; sum [7, 17].
    for (const rank of [0, 1]) expect(logsOf(r, rank)).toEqual(['[7,17]']);
  });
});
