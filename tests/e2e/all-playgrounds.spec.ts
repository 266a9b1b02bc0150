import { test, expect } from '@playwright/test';
import { chapterFiles, labSources, rawEmbeds } from '../playground-manifest';

// Every playground the book embeds must run in the browser and print what its page promises; the list of
// pages and how many playgrounds each holds come from the one playground manifest.
const chapterPath = (f: string) => `/chapters/${f.replace(/^\d+-/, '').replace(/\.mdx$/, '')}/`;
const pages = [
  ...chapterFiles().map((f) => ({ path: chapterPath(f), embeds: rawEmbeds(f).length })),
  { path: '/lab/collectives/', embeds: labSources().length },
];

for (const { path, embeds } of pages) {
  test(`every playground on ${path} runs and prints its expected lines on every rank`, async ({
    page,
  }) => {
    test.setTimeout(600_000);
    await page.goto(path);
    const playgrounds = page.locator('[data-playground]');
    const count = await playgrounds.count();
    expect(count, `${path}: playgrounds on the page vs <Playground> tags in its MDX`).toBe(embeds);
    for (let i = 0; i < count; i++) {
      const root = playgrounds.nth(i);
      const expected = JSON.parse((await root.getAttribute('data-expect')) ?? '[]') as string[];
      const world = Number(await root.getAttribute('data-world'));
      await root.getByRole('button', { name: 'Run' }).click();
      await expect(root.locator('[data-status]'), `${path} playground ${i}`).toContainText(
        /Finished|Failed|Timed out|syntax error/,
        { timeout: 240_000 },
      );
      await expect(
        root.locator('[data-status]'),
        `${path} playground ${i}: ${await root.locator('.pg-output').textContent()}`,
      ).toContainText('Finished');
      // Every rank's pane read in one call a try (16 ranks × a few lines were 50 round trips a playground),
      // retried until each holds each line, whitespace collapsed as toContainText does: the lines missing, by
      // rank, are what a failure shows.
      await expect
        .poll(
          () =>
            root.evaluate(
              (el, { world, expected }) =>
                Array.from({ length: world }, (_, r) => {
                  const squash = (t: string) => t.replace(/\s+/g, ' ');
                  const text = squash(el.querySelector(`[data-rank="${r}"]`)?.textContent ?? '');
                  return expected
                    .filter((line) => !text.includes(squash(line)))
                    .map((l) => `rank ${r}: ${l}`);
                }).flat(),
              { world, expected },
            ),
          { message: `${path} playground ${i}: lines missing` },
        )
        .toEqual([]);
    }
  });
}
