import { spawn } from 'node:child_process';
import { test, expect, type Locator } from '@playwright/test';
import { firstChapterPath } from './pages';
import { firstPlayground as pg } from './editor';
import {
  expectAxeCleanInBothThemes,
  expectAxeCleanInBothThemesHere,
} from './helpers/axe-both-themes';
import { runAndWait } from './helpers/run-and-wait';

// A playground on a simulated cluster: the selector, a run with virtual lanes and a step report, and the
// CLI printing the same virtual times for the same program. Costs about one 4-rank run in Chromium plus
// the same run through the CLI in Node (≈ 30–60 s on 2 busy cores).
const INSIDE_DDP = '/chapters/inside-ddp/';
const OVERLAP = 'content/chapters/playgrounds/04-ddp-overlap.ts';

const byTitle = (root: Locator, title: string) =>
  root
    .locator('[data-playground]')
    .filter({ has: root.page().getByRole('heading', { name: title }) });

test('the cluster selector: real time by default, a preset × nodes × GPUs per node sets the world, by keyboard @pages', async ({
  page,
}) => {
  await page.goto(firstChapterPath);
  const root = pg(page);
  const cluster = root.getByLabel('Cluster');
  await expect(cluster).toHaveValue('laptop');
  await expect(cluster.locator('option:checked')).toHaveText('This laptop (real time)');
  await expect(root.locator('[data-cluster-note]')).toContainText('real');
  // Real time stops at 16 ranks, and says why.
  await expect(root.locator('[data-cluster-note]')).toContainText('at most 16 ranks');
  await expect(root.getByLabel('Nodes')).toBeHidden();
  // Keyboard only: focus the select and step to the first preset.
  await cluster.focus();
  await page.keyboard.press('ArrowDown');
  await expect(cluster).not.toHaveValue('laptop');
  await expect(root.getByLabel('Nodes')).toBeVisible();
  await expect(root.locator('[data-world-select]')).toBeHidden();
  await cluster.selectOption('h100-ndr');
  await root.getByLabel('GPUs per node').selectOption('8');
  await root.getByLabel('Nodes').selectOption('2');
  await expect(root.locator('[data-cluster-world]')).toHaveText('= 16 ranks');
  // World ≤ the runtime's limit (1,024): 128 nodes of eight are offered, 256 are not, nor a ninth GPU on an 8-GPU node.
  const max = Number(await root.getAttribute('data-max-world'));
  await expect(root.getByLabel('Nodes').locator(`option[value="${max / 8}"]`)).toBeEnabled();
  await expect(root.getByLabel('Nodes').locator(`option[value="${max / 4}"]`)).toBeDisabled();
  await expect(root.getByLabel('GPUs per node').locator('option[value="8"]')).toBeEnabled();
  await expect(root.getByLabel('GPUs per node').locator('option[value="9"]')).toBeDisabled();
  await root.getByLabel('Nodes').selectOption('1');
  await expect(root.locator('[data-cluster-world]')).toHaveText('= 8 ranks');
  await expect(root.locator('[data-cluster-note]')).toContainText('virtual');
  await expect(root.locator('[data-cluster-note]')).toContainText('on this machine');
  await expect(root.locator('[data-status]')).toContainText('timed as h100-ndr, 1 node × 8 GPUs');
  await cluster.selectOption('laptop');
  await expect(root.locator('[data-world-select]')).toBeVisible();
});

test('the cluster controls pass axe in light and dark themes @pages', async ({ page }) => {
  await expectAxeCleanInBothThemes(page, [firstChapterPath], {
    prepare: async () => {
      await pg(page).getByLabel('Cluster').selectOption('a100-100gbe');
    },
    scan: () => ({ include: '[data-playground]' }),
  });
});

/** A run's step table as the CLI prints it (playground/cli/time-report.ts): one row of strings per step. */
function cliStepTable(stdout: string): string[][] {
  const lines = stdout.split('\n');
  const head = lines.findIndex((l) => l.startsWith('step  time (ms)'));
  expect(head, `the CLI printed a step table:\n${stdout}`).toBeGreaterThan(0);
  return lines
    .slice(head + 1)
    .filter((l) => /^\s*\d+ /.test(l))
    .map((l) => {
      // step, time, compute, comm, exposed, peer wait, MFU (or –), then the configuration's words.
      const [step, time, compute, comm, exposed, , mfu, sign] = l.trim().split(/\s+/);
      return [step!, time!, compute!, comm!, exposed!, mfu === '–' ? '–' : `${mfu}${sign}`];
    });
}

/** The page's step-report rows, each with the unrounded values it was drawn from, in the CLI's format. */
async function pageStepTable(report: Locator): Promise<string[][]> {
  const rows = await report
    .locator('tbody tr[data-step]')
    .evaluateAll((trs) => trs.map((tr) => (tr as HTMLElement).dataset.step!));
  const ms = (s: number) => (s * 1000).toFixed(3);
  return rows.map((json) => {
    const [step, seconds, compute, comm, exposed, mfu] = JSON.parse(json) as number[];
    return [
      String(step),
      ms(seconds!),
      ms(compute!),
      ms(comm!),
      ms(exposed!),
      mfu === null ? '–' : `${(mfu! * 100).toFixed(1)}%`,
    ];
  });
}

/** Runs `npm run ranks -- run …` the way the npm script does (the node bin, without npm's start-up). */
function runCli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['playground/cli/ranks.ts', 'run', ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

test('a simulated run draws a compute and a comm lane per rank and reports the step; the CLI prints the same virtual times', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await page.goto(INSIDE_DDP);
  const root = byTitle(page.locator('main'), 'DDP overlap on and off, in virtual time');
  await expect(root.getByLabel('Cluster')).toHaveValue('a100-hdr');
  await runAndWait(root, { timeout: 200_000 });
  await expect(root.locator('[data-status]')).toContainText('a100-hdr, 1 node × 4 GPUs');
  const report = root.locator('.pg-step-report');
  await expect(report).toContainText('charged as llama-2-7b (6.74B parameters)');
  await expect(report).toContainText('overlap on: mean of steps');
  await expect(report).toContainText('exposed communication:');
  await expect(report).toContainText('MFU');
  await root.locator('.pg-timeline summary').click();
  await expect(root.locator('.pg-timeline summary')).toContainText('virtual time');
  // The lane legend once had no background (white on white): its contrast is checked in both themes.
  await expectAxeCleanInBothThemesHere(page, { include: '.pg-legend', rules: ['color-contrast'] });
  for (let r = 0; r < 4; r++)
    for (const lane of ['compute', 'comm'])
      expect(
        await root.locator(`.pg-bar[data-lane="${lane}"][aria-label^="rank ${r},"]`).count(),
        `rank ${r} ${lane} lane`,
      ).toBeGreaterThan(0);
  // The CLI runs the backend the page ran on, so both charge the very same kernels.
  const backend = /· (\w+)/.exec((await root.locator('[data-rank="0"] h4').textContent())!)![1]!;
  const pageLines = (await root.locator('[data-rank="0"] pre').textContent())!
    .split('\n')
    .filter((l) => / ms/.test(l));
  expect(pageLines.length).toBeGreaterThanOrEqual(3);
  const pageSteps = await pageStepTable(report);

  // The same program through the real CLI: `npm run ranks -- run <file> --cluster … --nodes … --gpus-per-node …`.
  const cli = await runCli([
    OVERLAP,
    ...['--cluster', 'a100-hdr', '--nodes', '1', '--gpus-per-node', '4'],
    ...['--backend', backend, '--timeout', '180000'],
  ]);
  expect(cli.code, cli.stderr).toBe(0);
  expect(cli.stdout).toContain('virtual time on ');
  const cliLines = cli.stdout
    .split('\n')
    .filter((l) => l.startsWith('[rank 0] ') && / ms/.test(l))
    .map((l) => l.slice('[rank 0] '.length));
  expect(cliLines).toEqual(pageLines);
  // Every step the page reports, to every digit the CLI prints (µs): step, time, compute, comm, exposed, MFU.
  const cliSteps = cliStepTable(cli.stdout);
  expect(pageSteps.length).toBeGreaterThanOrEqual(2);
  expect(cliSteps).toEqual(pageSteps);
});

// Measures rather than gates (`npm run bench:page`): 16 rank workers on this machine's cores take minutes.
test('a 16-rank simulated run of the DDP overlap playground finishes in Chromium @bench', async ({
  page,
}) => {
  test.setTimeout(900_000);
  await page.goto(INSIDE_DDP);
  const root = byTitle(page.locator('main'), 'DDP overlap on and off, in virtual time');
  await root.getByLabel('Cluster').selectOption('h100-ndr');
  await root.getByLabel('GPUs per node').selectOption('8');
  await root.getByLabel('Nodes').selectOption('2');
  await expect(root.locator('[data-cluster-world]')).toHaveText('= 16 ranks');
  const started = Date.now();
  await root.getByRole('button', { name: 'Run' }).click();
  // Wait for the run to end either way, and on a failure say what the ranks said.
  await expect(root.locator('[data-status]')).toHaveText(/^(Finished|Failed|Timed out|Stopped)/, {
    timeout: 880_000,
  });
  const seconds = (Date.now() - started) / 1000;
  const ended = (await root.locator('[data-status]').textContent())!;
  if (!ended.startsWith('Finished')) {
    const panes = await root.locator('[data-rank] pre').allTextContents();
    throw new Error(`${ended}\n${panes.map((t, r) => `rank ${r}: …${t.slice(-400)}`).join('\n')}`);
  }
  await expect(root.locator('[data-status]')).toContainText('h100-ndr, 2 nodes × 8 GPUs');
  // Every rank ran to the end: 16 panes, each printed the program's last line.
  const panes = root.locator('[data-rank]');
  await expect(panes).toHaveCount(16);
  for (let r = 0; r < 16; r++)
    await expect(root.locator(`[data-rank="${r}"] pre`)).toContainText(
      'overlap shortens the step: true',
    );
  const report = root.locator('.pg-step-report');
  await expect(report).toContainText('Step report in virtual time on');
  expect(await report.locator('tbody tr[data-step]').count()).toBeGreaterThanOrEqual(2);
  // The last step's per-rank table has a row for each of the 16 ranks.
  await expect(report.locator('details tbody tr')).toHaveCount(16);
  const status = await root.locator('[data-status]').textContent();
  const step = await report.locator('.pg-step-summary').textContent();
  console.log(
    `16-rank simulated DDP overlap run in Chromium: ${seconds.toFixed(1)} s wall from Run to Finished (${status}); ${step}`,
  );
  // A reader who reads for a moment before Run: 16 ranks on this machine's cores are a worker a core, which the
  // page prepares while it is idle (warm-ranks.ts), so the Run does not wait for workers and tfjs.
  await page.waitForTimeout(5_000);
  const again = Date.now();
  await root.getByRole('button', { name: 'Run' }).click();
  await expect(root.locator('[data-status]')).toHaveText(/^Finished/, { timeout: 880_000 });
  await expect(report.locator('.pg-step-summary')).toHaveText(step!);
  console.log(
    `the same run after a 5 s pause (warm ranks): ${((Date.now() - again) / 1000).toFixed(1)} s wall, the same virtual step summary`,
  );
});
