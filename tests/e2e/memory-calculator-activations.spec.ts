import { test, expect, type Locator } from '@playwright/test';
import { fmtGB } from '../../src/lib/figures/format-quantities';
import {
  ACTIVATION_FORMULA,
  fitVerdict,
  perGpuWithActivations,
} from '../../src/lib/figures/memory-calculator-text';
import type { Recompute } from '../../src/lib/figures/activation-memory';
import {
  ACTIVATION_CALCULATOR_DEFAULTS as A,
  MEMORY_CALCULATOR_DEFAULTS as D,
} from '../../src/lib/figures/widget-defaults';
import { zeroPerGpuBreakdown } from '../../src/lib/figures/zero-memory';
import { expectAxeCleanInBothThemesHere } from './helpers/axe-both-themes';

const out = (w: Locator, name: string) => w.locator(`[data-out="${name}"]`);

async function expectActivations(
  w: Locator,
  shape: typeof A,
  recompute: Recompute,
  states = zeroPerGpuBreakdown({ ...D }).total,
) {
  const a = perGpuWithActivations(states, shape, recompute);
  await expect(out(w, 'activations')).toHaveText(fmtGB(a.activations));
  await expect(out(w, 'per-layer')).toHaveText(fmtGB(a.perLayer, 2));
  await expect(out(w, 'grand-total')).toHaveText(fmtGB(a.total));
  await expect(out(w, 'activation-formula')).toHaveText(ACTIVATION_FORMULA[recompute]);
}

test('memory calculator: activations by keyboard, every recomputation mode, totals per GPU; axe clean light and dark @pages', async ({
  page,
}) => {
  await page.goto('/chapters/memory-and-zero/');
  const w = page.locator('[data-widget="memory-calculator"]');
  await expectActivations(w, A, A.recompute);
  // Keyboard only: the recomputation select, arrow keys through the three modes.
  const mode = w.getByLabel('Recomputation');
  await mode.focus();
  await page.keyboard.press('ArrowUp');
  await expect(mode).toHaveValue('none');
  await expectActivations(w, A, 'none');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await expect(mode).toHaveValue('full');
  await expectActivations(w, A, 'full');
  // Shape fields: micro-batch 4 and sequence 4096 (Tab from micro-batch reaches hidden size).
  await w.getByLabel('Micro-batch (b)').fill('4');
  await page.keyboard.press('Tab');
  await expect(w.getByLabel('Hidden size (h)')).toBeFocused();
  await w.getByLabel('Sequence length (s)').fill('4096');
  await mode.selectOption('none');
  await expectActivations(w, { ...A, micro: 4, seq: 4096 }, 'none');
  // Activations are per rank: switching the strategy changes the model states, not the activations.
  await w.getByLabel('Strategy').selectOption('zero3');
  await expectActivations(
    w,
    { ...A, micro: 4, seq: 4096 },
    'none',
    zeroPerGpuBreakdown({ ...D, strategy: 'zero3' }).total,
  );
  // A shape that does not divide says why instead of printing a number.
  await w.getByLabel('Attention heads (a)').fill('7');
  await expect(out(w, 'error')).toHaveText(
    `The hidden size (${A.hidden}) must divide evenly by the number of heads (7).`,
  );
  await w.getByLabel('Attention heads (a)').fill(String(A.heads));
  await expect(out(w, 'error')).toBeHidden();
  await expectAxeCleanInBothThemesHere(page, { include: '[data-widget="memory-calculator"]' });
});

test('memory calculator: a per-GPU capacity line and a fits verdict that follow the inputs @pages', async ({
  page,
}) => {
  await page.goto('/chapters/memory-and-zero/');
  const w = page.locator('[data-widget="memory-calculator"]');
  const total = () =>
    perGpuWithActivations(zeroPerGpuBreakdown({ ...D }).total, A, A.recompute).total;
  await expect(out(w, 'fits')).toHaveText(fitVerdict(total(), D.gpuMemory).text);
  await expect(out(w, 'fits')).toHaveAttribute('data-fits', 'true');
  await expect(out(w, 'capacity')).toHaveText(fmtGB(D.gpuMemory));
  // A 40 GB GPU, typed from the keyboard: the verdict follows.
  const memory = w.getByLabel('Memory per GPU (GB)');
  await memory.focus();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('24');
  await expect(out(w, 'fits')).toHaveText(fitVerdict(total(), 24e9).text);
  await expect(out(w, 'fits')).toHaveAttribute('data-fits', 'false');
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('0');
  await expect(out(w, 'error')).toHaveText('Enter the memory of one GPU in GB (more than 0).');
});
