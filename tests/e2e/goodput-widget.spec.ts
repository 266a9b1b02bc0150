import { test, expect } from '@playwright/test';
import {
  GOODPUT_DEFAULTS,
  goodputOutputs,
  llama3PerGpuMtbf,
} from '../../src/lib/figures/reliability';
import { expectAxeCleanInBothThemesHere } from './helpers/axe-both-themes';

// Chapter 9's goodput widget prints what src/lib/figures/reliability.ts computes, follows the
// keyboard, says why a bad input cannot be computed, and passes axe in both themes.
const CH9 = '/chapters/operating-at-scale/';
const base = {
  ...GOODPUT_DEFAULTS,
  perGpuMtbfHours: Math.round(llama3PerGpuMtbf().allCausesHours),
};

test('goodput widget: defaults, keyboard input, errors, axe in both themes @pages', async ({
  page,
}) => {
  await page.goto(CH9);
  const w = page.locator('ranks-goodput');
  const out = (n: string) => w.locator(`[data-out="${n}"]`);
  const expected = goodputOutputs(base);
  await expect(out('goodput')).toHaveText(expected.goodput);
  await expect(out('young')).toHaveText(expected.young);

  // Keyboard only: focus the GPU field, replace its value, tab on.
  await w.locator('input[name="gpus"]').focus();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('4096');
  await page.keyboard.press('Tab');
  await expect(page.locator('input[name="interval"]')).toBeFocused();
  const at4096 = goodputOutputs({ ...base, gpus: 4096 });
  await expect(out('goodput')).toHaveText(at4096.goodput);
  await expect(out('mtbf')).toHaveText(at4096.mtbf);
  await expect(out('verdict')).toHaveText(at4096.verdict);

  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('0');
  await expect(out('error')).toBeVisible();
  await expect(out('error')).toContainText('must be positive');
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('30');
  await expect(out('error')).toBeHidden();

  await w.scrollIntoViewIfNeeded();
  await expectAxeCleanInBothThemesHere(page, { include: 'ranks-goodput' });
});
