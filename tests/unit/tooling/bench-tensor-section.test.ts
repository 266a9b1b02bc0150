// The benchmark's tensor-path verdicts (issue 20): which cells lose to postMessage, and ×raw against the copy floors.
import { describe, expect, it } from 'vitest';
import type { BenchRow } from '../../bench/bench-driver.ts';
import { tensorPathSection } from '../../bench/format-results.ts';

const KB = 1024;
const MB = KB * KB;
const row = (ranks: number, method: BenchRow['method'], bytes: number, us: number): BenchRow => ({
  environment: 'node',
  ranks,
  method,
  bytes,
  iterations: 10,
  us,
  algbw: bytes / us / 1e3,
  busbw: bytes / us / 1e3,
});

describe('tensorPathSection', () => {
  const rows = [
    row(4, 'auto', 16 * MB, 1000),
    row(4, 'copy-in', 16 * MB, 2500),
    row(4, 'copy-in-out', 16 * MB, 4000),
    row(4, 'tensor-auto', 16 * MB, 4400),
    row(4, 'postMessage', 16 * MB, 20000),
    row(4, 'auto', 64 * KB, 50),
    row(4, 'tensor-auto', 64 * KB, 300), // slower than postMessage here
    row(4, 'postMessage', 64 * KB, 250),
    row(4, 'tensor-auto', 16 * KB, 90), // below 64 KB: not judged
    row(4, 'postMessage', 16 * KB, 80),
  ];
  const lines = tensorPathSection(rows, 'node');

  it('names every cell from 64 KB where the tensor path is not faster than postMessage', () => {
    expect(lines).toContain(
      '- Tensor path not faster than postMessage at ≥ 64 KB: 64K n=4 (target: none).',
    );
  });

  it('gives ×raw at 16 MB on 4 ranks for the tensor path and both copy floors', () => {
    expect(lines.join('\n')).toContain(
      'tensor path **4.40** (target ≤ 1.5); its floors: one copy in **2.50**, a copy in and one out **4.00**',
    );
    const cells = lines
      .find((l) => l.startsWith('| 4 | 16M |'))!
      .split('|')
      .map((c) => c.trim());
    expect(cells.slice(3, 12)).toEqual([
      '1000.0',
      '2500.0',
      '4000.0',
      '4400.0',
      '20000.0',
      '2.50',
      '4.00',
      '4.40',
      '4.55',
    ]);
  });

  it('prints nothing for an environment without tensor rows', () => {
    expect(tensorPathSection(rows, 'chromium')).toEqual([]);
  });
});
