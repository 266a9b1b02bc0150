import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, expect } from '@playwright/test';
import {
  backendsOf,
  logsOf,
  runInDiagnostics,
  withSoftwareWebGpu,
} from './helpers/diagnostics-run';

/**
 * Chapter 1's transformer demo, cut to a few steps of a tiny config (one block, width 16, windows of 8):
 * SwiftShader runs WebGPU on the CPU in one GPU process for all four ranks, and a rank that computes for
 * more than the runtime's 5 s collective watchdog while its peers wait would end the run.
 */
const STEPS = 2;
/** Two ranks: SwiftShader serves every rank's WebGPU device from one GPU process, so each rank slows the others. */
const WORLD = 2;
const TINY: [RegExp, string][] = [
  [/\bsteps = \d+;/, `steps = ${STEPS};`],
  [/\bconst s = \d+,/, 'const s = 8,'],
  [/\bh = \d+,/, 'h = 16,'],
  [/\blayers = \d+,/, 'layers = 1,'],
  // Every rank runs the one-device reference (rank 0's verdict is still the one broadcast): with rank 0
  // alone compiling its shaders, its peer would wait in a collective past the watchdog.
  [
    /const single = dist\.rank === 0 \? (new SingleDeviceTrainer\(.*\)) : null;/,
    'const single = $1;',
  ],
];
const source = readFileSync(
  join(process.cwd(), 'content', 'chapters', 'playgrounds', '01-char-transformer.ts'),
  'utf8',
);
const program = TINY.reduce((code, [from, to]) => code.replace(from, to), source);

// Opt-in (RANKS_WEBGPU_TRANSFORMER=1): on SwiftShader under load, a rank awaiting its first shader
// compiles looks idle to its peer (its heartbeat keeps beating), so the 5 s collective watchdog ends the run.
const OPT_IN = process.env.RANKS_WEBGPU_TRANSFORMER === '1';

test('WebGPU: the transformer demo trains under DDP and FSDP on 2 ranks and matches one device', async ({
  baseURL,
}) => {
  test.skip(
    !OPT_IN,
    'set RANKS_WEBGPU_TRANSFORMER=1: SwiftShader shader compiles outlast the 5 s collective watchdog',
  );
  test.setTimeout(600_000);
  for (const [from] of TINY) expect(source).toMatch(from); // each cut applies to today's program
  await withSoftwareWebGpu(baseURL, async (page) => {
    const started = Date.now();
    const r = await runInDiagnostics(page, program, WORLD, 'webgpu', 540_000);
    expect(r.result.ok, JSON.stringify(r.events.filter((e) => e.type === 'error'))).toBe(true);
    expect(backendsOf(r)).toEqual(Array(WORLD).fill('webgpu'));
    for (let rank = 0; rank < WORLD; rank++) {
      expect(logsOf(r, rank)).toContain(
        `DDP on ${WORLD} ranks matches one device (tolerance 1e-4): true`,
      );
      expect(logsOf(r, rank)).toContain(
        `FSDP on ${WORLD} ranks matches one device (tolerance 1e-4): true`,
      );
    }
    const timing = logsOf(r, 0).find((l) => l.includes('per step:'))!;
    expect(timing).toMatch(/\(webgpu\)$/);
    test.info().annotations.push({
      type: 'timing',
      description: `${timing}; whole run ${((Date.now() - started) / 1000).toFixed(0)} s`,
    });
    console.log(
      `[webgpu transformer] ${timing}; whole run ${((Date.now() - started) / 1000).toFixed(0)} s`,
    );
  });
});
