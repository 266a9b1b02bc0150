import { test, expect, type Locator, type Page } from '@playwright/test';
import {
  zeroPerGpuBreakdown,
  memoryFormula,
  STRATEGIES,
  type Strategy,
} from '../../src/lib/figures/zero-memory';
import {
  estimate,
  estimatorOutputs,
  ESTIMATOR_PRESETS,
  type EstimatorInput,
} from '../../src/lib/figures/comm-estimator';
import { fmtGB } from '../../src/lib/figures/format-quantities';
import {
  COMM_ESTIMATOR_DEFAULTS,
  MEMORY_CALCULATOR_DEFAULTS,
} from '../../src/lib/figures/widget-defaults';
import { SOURCE_70B_TABLE } from '../../src/lib/figures/source-errata';
import { THEMES, expectAxeClean, setTheme, type Theme } from './helpers/axe-both-themes';

// The widgets and chapters must print exactly what src/lib/figures computes.
const ZERO = '/chapters/memory-and-zero/';
const FSDP = '/chapters/fsdp-and-choosing/';

const out = (w: Locator, name: string) => w.locator(`[data-out="${name}"]`);

async function expectMemory(w: Locator, input: Parameters<typeof zeroPerGpuBreakdown>[0]) {
  const b = zeroPerGpuBreakdown(input);
  await expect(out(w, 'total')).toHaveText(fmtGB(b.total));
  await expect(out(w, 'params')).toHaveText(fmtGB(b.params));
  await expect(out(w, 'grads')).toHaveText(fmtGB(b.grads));
  await expect(out(w, 'optimizer')).toHaveText(fmtGB(b.optimizer));
  await expect(out(w, 'formula')).toHaveText(memoryFormula(input));
}

test('memory calculator renders its defaults without JavaScript @pages', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(ZERO);
  await expectMemory(page.locator('[data-widget="memory-calculator"]'), {
    ...MEMORY_CALCULATOR_DEFAULTS,
  });
  await context.close();
});

test('memory calculator follows every input, by keyboard, with the figure functions @pages', async ({
  page,
}) => {
  await page.goto(ZERO);
  const w = page.locator('[data-widget="memory-calculator"]');
  await expectMemory(w, { ...MEMORY_CALCULATOR_DEFAULTS });
  const params = w.getByLabel('Parameters (billions)');
  await params.fill('7.5');
  await w.getByLabel('GPUs (data-parallel ranks)').fill('64');
  for (const strategy of STRATEGIES) {
    await w.getByLabel('Strategy').selectOption(strategy);
    await expectMemory(w, {
      params: 7.5e9,
      gpus: 64,
      strategy,
      precision: 'bf16-mixed',
      optimizer: 'adam',
    });
  }
  // Keyboard only: focus the precision select and change it with the arrow keys.
  await w.getByLabel('Precision').focus();
  await page.keyboard.press('ArrowUp');
  await expect(w.getByLabel('Precision')).toHaveValue('fp32');
  await w.getByLabel('Optimizer').selectOption('sgd-momentum');
  await expectMemory(w, {
    params: 7.5e9,
    gpus: 64,
    strategy: 'zero3',
    precision: 'fp32',
    optimizer: 'sgd-momentum',
  });
  await params.fill('-3');
  await expect(out(w, 'error')).toBeVisible();
});

test('memory calculator switches mixed-precision layout by keyboard: ZeRO-1 for 7B on 8 GPUs is 38.5 GB or 77 GB @pages', async ({
  page,
}) => {
  await page.goto(ZERO);
  const w = page.locator('[data-widget="memory-calculator"]');
  await w.getByLabel('Parameters (billions)').fill('7');
  await w.getByLabel('GPUs (data-parallel ranks)').fill('8');
  await w.getByLabel('Strategy').selectOption('zero1');
  const base = {
    params: 7e9,
    gpus: 8,
    strategy: 'zero1' as const,
    precision: 'bf16-mixed' as const,
    optimizer: 'adam' as const,
  };
  await expectMemory(w, { ...base, layout: 'half-weights' });
  await expect(out(w, 'total')).toHaveText('38.5 GB');
  // Keyboard only: Tab from the precision select reaches the layout select; an arrow key switches it.
  await w.getByLabel('Precision').focus();
  await page.keyboard.press('Tab');
  await expect(w.getByLabel('Framework layout')).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(w.getByLabel('Framework layout')).toHaveValue('fp32-weights');
  await expectMemory(w, { ...base, layout: 'fp32-weights' });
  // 63 GB of fp32 model states plus the bf16 copy of every weight autocast saves for backward (14 GB)
  await expect(out(w, 'total')).toHaveText('77 GB');
  await expect(out(w, 'note')).toContainText('no master copy');
  await expect(out(w, 'note')).toContainText('saves each weight');
  // fp32 training has one layout: the select is disabled and says why.
  await w.getByLabel('Precision').selectOption('fp32');
  await expect(w.getByLabel('Framework layout')).toBeDisabled();
  await expect(out(w, 'note')).toContainText('mixed precision only');
  // Dark theme: the new control passes the same axe scan as the rest of the page.
  await w.getByLabel('Precision').selectOption('bf16-mixed');
  await setTheme(page, 'dark');
  await expectAxeClean(page, 'dark', { include: '[data-widget="memory-calculator"]' });
});

test('chapter 5 prints the 70B model in both layouts, and chapter 6 the 7B sizing in both @pages', async ({
  page,
}) => {
  await page.goto(ZERO);
  for (const s of STRATEGIES as readonly Strategy[]) {
    for (const layout of ['half-weights', 'fp32-weights'] as const) {
      const total = zeroPerGpuBreakdown({
        params: SOURCE_70B_TABLE.params,
        gpus: SOURCE_70B_TABLE.gpus,
        strategy: s,
        layout,
      }).total;
      await expect(
        page.locator(`tr[data-layout-row="${s}"] td[data-layout="${layout}"]`),
      ).toHaveText(fmtGB(total));
    }
  }
  await expect(
    page.locator('tr[data-comm="zero1"][data-implementation="zero-redundancy-optimizer"]'),
  ).toContainText('1.5×');
  await expect(
    page.locator('tr[data-comm="zero1"][data-implementation="reduce-scatter"]'),
  ).toContainText('1×');
  await page.goto(FSDP);
  await expect(page.locator('tr[data-sizing="zero1"] td[data-layout="fp32-weights"]')).toHaveText(
    '77 GB',
  );
  await expect(page.locator('tr[data-sizing="zero1"] td[data-layout="half-weights"]')).toHaveText(
    '38.5 GB',
  );
});

test('chapter 5 prints the 70B table in both accountings, with ZeRO-2 at 227.5 GB @pages', async ({
  page,
}) => {
  await page.goto(ZERO);
  for (const s of STRATEGIES as readonly Strategy[]) {
    const row = page.locator(`tr[data-strategy="${s}"]`);
    for (const accounting of ['paper', 'chapter'] as const) {
      const total = zeroPerGpuBreakdown({
        params: SOURCE_70B_TABLE.params,
        gpus: SOURCE_70B_TABLE.gpus,
        strategy: s,
        accounting,
      }).total;
      await expect(row.locator(`[data-total="${accounting}"]`)).toHaveText(fmtGB(total));
    }
  }
  await expect(page.locator('tr[data-strategy="zero2"] [data-total="chapter"]')).toHaveText(
    '227.5 GB',
  );
  await expect(page.locator('tr[data-comm="zero3"]')).toContainText('1.5×');
  await expect(
    page.locator('tr[data-comm="zero1"][data-implementation="reduce-scatter"]'),
  ).toContainText('all-gather of updated parameters');
});

async function expectComm(w: Locator, input: EstimatorInput) {
  for (const [name, text] of Object.entries(estimatorOutputs(input)))
    await expect(out(w, name)).toHaveText(text);
  await expect(out(w, 'verdict')).toHaveAttribute('data-bound', estimate(input).bound);
  await expect(w.locator(`[data-sources="${input.preset}"]`)).toBeVisible();
  return estimate(input);
}

test('communication estimator: defaults, cluster presets, nodes and the network-bound verdict @pages', async ({
  page,
}) => {
  await page.goto(FSDP);
  const w = page.locator('[data-widget="comm-time-estimator"]');
  const d = COMM_ESTIMATOR_DEFAULTS;
  const base: EstimatorInput = {
    params: d.params,
    preset: d.preset,
    nodes: d.nodes,
    gpusPerNode: d.gpusPerNode,
    tokensPerGpu: d.tokensPerGpu,
    mfu: d.mfu,
  };
  const rails = await expectComm(w, base);
  expect(rails.bound).toBe('compute');
  await expect(w.getByRole('combobox', { name: /^Cluster/ }).locator('option')).toHaveCount(
    ESTIMATOR_PRESETS.length,
  );
  await w.getByRole('combobox', { name: /^Cluster/ }).selectOption('a100-100gbe');
  const oneNic = await expectComm(w, { ...base, preset: 'a100-100gbe' });
  expect(oneNic.bound).toBe('network');
  await expect(out(w, 'verdict')).toContainText('Network bound');
  await expect(w.locator('[data-sources="h100-ndr"]')).toBeHidden();
  await w.getByLabel('Nodes', { exact: true }).fill('1');
  await w.getByLabel('Tokens per GPU per step').fill('65536');
  await expectComm(w, { ...base, preset: 'a100-100gbe', nodes: 1, tokensPerGpu: 65536 });
  await w.getByLabel('GPUs per node').fill('9');
  await expect(out(w, 'error')).toBeVisible();
  await expect(out(w, 'error')).toContainText('gpus per node must be');
  await w.getByLabel('GPUs per node').fill('4');
  await expect(out(w, 'error')).toBeHidden();
  await expectComm(w, {
    ...base,
    preset: 'a100-100gbe',
    nodes: 1,
    gpusPerNode: 4,
    tokensPerGpu: 65536,
  });
});

async function axe(page: Page, path: string, theme: Theme) {
  await page.goto(path);
  await setTheme(page, theme);
  await expectAxeClean(page, `${theme} ${path}`, { include: '[data-widget]' });
}

for (const theme of THEMES) {
  test(`widgets pass axe in the ${theme} theme @pages`, async ({ page }) => {
    await axe(page, ZERO, theme);
    await axe(page, FSDP, theme);
  });
}
