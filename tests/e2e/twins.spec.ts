import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, expect } from '@playwright/test';
import { firstChapterPath } from './pages';
import { firstPlayground } from './editor';
import { expectAxeCleanInBothThemes } from './helpers/axe-both-themes';

// The PyTorch tab beside each playground's TypeScript: the twin from content/twins/, launch commands, copy, download.
const twinSource = (file: string) =>
  readFileSync(join(process.cwd(), 'content', 'twins', file), 'utf8');

test('the PyTorch tab shows the twin and its torchrun, multi-node and SLURM commands; the TypeScript stays first @pages', async ({
  page,
}) => {
  await page.goto(firstChapterPath);
  const pg = firstPlayground(page);
  const [ts, py] = [
    pg.getByRole('tab', { name: 'TypeScript' }),
    pg.getByRole('tab', { name: 'PyTorch' }),
  ];
  await expect(ts).toHaveAttribute('aria-selected', 'true');
  await expect(pg.getByRole('tabpanel', { name: 'TypeScript' })).toContainText('dist.allReduce');
  await expect(pg.locator('.pg-twin')).toBeHidden();
  await py.click();
  const panel = pg.getByRole('tabpanel', { name: 'PyTorch' });
  await expect(panel).toBeVisible();
  await expect(pg.getByRole('tabpanel', { name: 'TypeScript' })).toBeHidden();
  expect((await panel.locator('.pg-twin-code pre').textContent())!.trim()).toBe(
    twinSource('01-average-gradients.py').trim(),
  );
  await expect(panel.locator('[data-command="one"] pre')).toHaveText(
    'torchrun --nproc_per_node=4 01-average-gradients.py',
  );
  await expect(panel.locator('[data-command="nodes"] pre')).toHaveText(
    /^torchrun --nnodes=2 --nproc_per_node=4 --rdzv_id=\S+ --rdzv_backend=c10d --rdzv_endpoint=\$MASTER_ADDR:29500 01-average-gradients\.py$/,
  );
  const sbatch = (await panel.locator('[data-command="slurm"] pre').textContent())!;
  expect(sbatch).toMatch(
    /^#!\/bin\/bash\n#SBATCH --job-name=01-average-gradients\n#SBATCH --nodes=2\n/,
  );
  expect(sbatch).toContain('srun torchrun --nnodes="$SLURM_NNODES"');
  expect(sbatch).toContain('--rdzv_endpoint="$head:29500"');
});

test('the tabs follow the ARIA tabs pattern: arrows, Home and End move and select, Tab enters the panel @pages', async ({
  page,
}) => {
  await page.goto(firstChapterPath);
  const pg = firstPlayground(page);
  const [ts, py] = [
    pg.getByRole('tab', { name: 'TypeScript' }),
    pg.getByRole('tab', { name: 'PyTorch' }),
  ];
  await expect(py).toHaveAttribute('tabindex', '-1');
  await ts.focus();
  await page.keyboard.press('ArrowRight');
  await expect(py).toBeFocused();
  await expect(py).toHaveAttribute('aria-selected', 'true');
  await expect(py).toHaveAttribute('tabindex', '0');
  await expect(ts).toHaveAttribute('tabindex', '-1');
  await expect(pg.locator('.pg-twin')).toBeVisible();
  await page.keyboard.press('Home');
  await expect(ts).toBeFocused();
  await expect(pg.locator('.pg-twin')).toBeHidden();
  await page.keyboard.press('End');
  await expect(py).toBeFocused();
  await page.keyboard.press('ArrowRight'); // wraps around
  await expect(ts).toBeFocused();
  await page.keyboard.press('ArrowLeft');
  await expect(py).toBeFocused();
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => document.activeElement?.closest('.pg-twin') !== null)).toBe(
    true,
  );
});

test('each copy button puts its text on the clipboard and says so @pages', async ({
  page,
  context,
  baseURL,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL! });
  await page.goto(firstChapterPath);
  const pg = firstPlayground(page);
  await pg.getByRole('tab', { name: 'PyTorch' }).click();
  const panel = pg.locator('.pg-twin');
  const clipboard = () => page.evaluate(() => navigator.clipboard.readText());
  await panel.getByRole('button', { name: 'Copy code' }).click();
  await expect(panel.getByRole('status')).toHaveText('Copied to the clipboard.');
  expect((await clipboard()).trim()).toBe(twinSource('01-average-gradients.py').trim());
  const commands = panel.getByRole('button', { name: 'Copy command' });
  await expect(commands).toHaveCount(2);
  await commands.first().click();
  expect(await clipboard()).toBe('torchrun --nproc_per_node=4 01-average-gradients.py');
  await commands.last().click();
  expect(await clipboard()).toContain('--rdzv_backend=c10d');
  await panel.getByRole('button', { name: 'Copy script' }).click();
  expect(await clipboard()).toMatch(/^#!\/bin\/bash\n#SBATCH/);
});

test('the download links serve the twin and the helper byte for byte @pages', async ({
  page,
  request,
}) => {
  await page.goto(firstChapterPath);
  const pg = firstPlayground(page);
  await pg.getByRole('tab', { name: 'PyTorch' }).click();
  for (const file of ['01-average-gradients.py', 'ranks_twin.py']) {
    const link = pg.getByRole('link', { name: file });
    await expect(link).toHaveAttribute('download', '');
    const response = await request.get((await link.getAttribute('href'))!);
    expect(response.status()).toBe(200);
    expect(await response.text()).toBe(twinSource(file));
  }
});

test('a twin that Gloo on PyTorch 1.13 cannot run says what it needs @pages', async ({ page }) => {
  await page.goto('/chapters/memory-and-zero/');
  const pg = page.locator('[data-playground][data-id="05-zero-ledger"]');
  await pg.getByRole('tab', { name: 'PyTorch' }).click();
  await expect(pg.getByRole('note')).toContainText('Needs a GPU or a newer PyTorch.');
  await expect(pg.getByRole('note')).toContainText('PyTorch 2.3 or newer');
});

test('with the PyTorch tab open the page passes axe in light and dark themes @pages', async ({
  page,
}) => {
  await expectAxeCleanInBothThemes(page, [firstChapterPath, '/chapters/memory-and-zero/'], {
    prepare: async () => {
      const pg = firstPlayground(page);
      await pg.getByRole('tab', { name: 'PyTorch' }).click();
      await expect(pg.locator('.pg-twin')).toBeVisible();
    },
    scan: () => ({ include: '[data-playground]' }),
  });
});

test('pressing Run while the PyTorch tab is open shows the TypeScript that runs, and its output', async ({
  page,
}) => {
  await page.goto(firstChapterPath);
  const pg = firstPlayground(page);
  await pg.getByRole('tab', { name: 'PyTorch' }).click();
  await pg.getByRole('button', { name: 'Run' }).click();
  await expect(pg.getByRole('tab', { name: 'TypeScript' })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  await expect(pg.locator('.pg-twin')).toBeHidden();
  await expect(pg.locator('[data-status]')).toContainText('Finished', { timeout: 90_000 });
  await expect(pg.locator('[data-rank="0"]')).toContainText(
    'matches the full-batch gradient: true',
  );
});
