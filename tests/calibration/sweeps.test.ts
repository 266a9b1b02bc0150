import { describe, expect, it } from 'vitest';
import { PUBLISHED_SWEEPS } from './published-sweeps.ts';
import { NOT_MODELLED, notModelledFor } from './not-modelled.ts';
import { clusterShape } from '../../playground/simulation/cluster-shape.ts';
import {
  nvlsTreeChunkBytes,
  nvlsTreeRamp,
  treeLl128Chunking,
  treeLl128Ramp,
} from '../../playground/simulation/collective-model.ts';
import {
  SWEEP_OUTLIER,
  SWEEP_TOLERANCE,
  sweepBands,
  sweepMarkdown,
  sweepRows,
  sweepSummary,
} from './sweep-table.ts';

describe('the size-dependent model against whole published nccl-tests sweeps (issue 31)', () => {
  it('holds ≥ 60 published points, each sweep naming system, source, date and version', () => {
    const points = PUBLISHED_SWEEPS.reduce((n, s) => n + s.rows.length, 0);
    expect(points).toBeGreaterThanOrEqual(60);
    for (const s of PUBLISHED_SWEEPS) {
      expect(s.source, s.id).toMatch(/^https:\/\//);
      expect(s.date.length, s.id).toBeGreaterThan(3);
      expect(s.version.length, s.id).toBeGreaterThan(3);
      expect(s.note.length, s.id).toBeGreaterThan(20);
      if (s.split !== 'not-modelled') expect(s.preset, s.id).toBeDefined();
    }
  });

  it('has a held-out set with a whole 8 B – 8 GiB sweep', () => {
    const held = PUBLISHED_SWEEPS.filter((s) => s.split === 'held-out');
    expect(held.some((s) => s.rows[0]![0] === 8 && s.rows.at(-1)![0] === 8 * 2 ** 30)).toBe(true);
  });

  it('predicts the held-out points: ≥ 80 % within ±25 % of busbw, none beyond ±50 % outside NOT_MODELLED', () => {
    const rows = sweepRows('held-out');
    const s = sweepSummary(rows);
    const worst = rows
      .filter((r) => Math.abs(r.error) > SWEEP_TOLERANCE)
      .map((r) => `${r.sweep.id} ${r.bytes} B: ${(r.error * 100).toFixed(0)} %`);
    // The share counts every held-out point, listed or not: listing a point never raises it.
    expect(s.share, worst.join('\n')).toBeGreaterThanOrEqual(0.8);
    const beyond = rows
      .filter((r) => Math.abs(r.error) > SWEEP_OUTLIER && !notModelledFor(r.sweep.id, r.bytes))
      .map((r) => `${r.sweep.id} ${r.bytes} B: ${(r.error * 100).toFixed(0)} %`);
    expect(beyond).toEqual([]);
    // The list stays small and every entry says why, with a source.
    const listed = rows.filter((r) => notModelledFor(r.sweep.id, r.bytes));
    expect(listed.length).toBeLessThanOrEqual(0.1 * rows.length);
    for (const n of NOT_MODELLED) {
      expect(n.why.length, n.id).toBeGreaterThan(80);
      expect(n.source, n.id).toMatch(/^https:\/\//);
      if (n.points)
        expect(
          PUBLISHED_SWEEPS.some((w) => w.id === n.points!.sweep),
          n.id,
        ).toBe(true);
    }
    // Pinned (simulated cluster model against published nccl-tests rows), so a model change shows here.
    expect([sweepBands(rows).within10, s.within, rows.length - sweepBands(rows).within50]).toEqual(
      HELD_OUT_BANDS,
    );
  });

  it('reproduces the points its one constant was fitted on (NVLS chunk cost) within ±10 % at 4 GiB', () => {
    const fit = sweepRows('fit').filter((r) => r.bytes === 4 * 2 ** 30 && r.gpus === 8);
    expect(fit.length).toBeGreaterThan(0);
    for (const r of fit) expect(Math.abs(r.error), r.sweep.id).toBeLessThan(0.1);
    expect(SWEEP_OUTLIER).toBe(0.5);
  });

  it('fits the cross-node NVLS-tree pipeline on its one fit sweep (2 nodes): every row within ±25 %, 29 of 32 within ±10 %', () => {
    const fit = sweepRows('fit').filter((r) => r.sweep.id === 'nccl-tests-309-h100-ndr-2n');
    expect(fit.length).toBe(32);
    const off = fit
      .filter((r) => Math.abs(r.error) > SWEEP_TOLERANCE)
      .map((r) => `${r.bytes} B: ${(r.error * 100).toFixed(0)} %`);
    expect(off).toEqual([]);
    // Pinned (simulated cluster model against published nccl-tests rows): the fit quality.
    expect(fit.filter((r) => Math.abs(r.error) <= 0.1).length).toBe(29);
  });

  it('chunks NVLS-tree as calcCollChunking does (NCCL 2.26.2) and ramps its inter-node pipeline with it', () => {
    const two = clusterShape('h100-ndr', 2, 8);
    const eight = clusterShape('h100-ndr', 8, 8);
    // ops = 16 channels × 8 NVLS heads (one per NIC) = 128.
    expect(nvlsTreeChunkBytes(two, 2 ** 30)).toBe(131072);
    expect(nvlsTreeChunkBytes(two, 4 * 128 * 131072 - 1)).toBe(65536);
    expect(nvlsTreeChunkBytes(two, 128 * 65536 - 1)).toBe(32768);
    // From 4 nodes on the chunk is capped at 64 KiB (NCCL_NVLS_TREE_MAX_CHUNKSIZE's default).
    expect(nvlsTreeChunkBytes(eight, 2 ** 30)).toBe(65536);
    // 2 nodes: one tree level each way, 2 × 0.8 chunk-times; 8 nodes: three levels, 4.8.
    expect(nvlsTreeRamp(two, 2 ** 30)).toBeCloseTo(64 / (64 + 1.6), 12);
    expect(nvlsTreeRamp(eight, 2 ** 30)).toBeCloseTo(128 / (128 + 4.8), 12);
    expect(nvlsTreeRamp(clusterShape('h100-ndr', 1, 8), 2 ** 30)).toBe(1);
  });

  it('chunks tree/LL128 as calcCollChunking does and ramps the pipeline with it (2 nodes × 8, 24 channels)', () => {
    const c = clusterShape('a100-roce', 2, 8);
    const at = (bytes: number) => treeLl128Chunking(c, 24, bytes);
    // nstepsLL128 = 1 + log2i(2) + 0.1 × 8; one LL128 step is 120 × 640 × 8 B, 15/16 of it data.
    expect(at(2 ** 20).nsteps).toBeCloseTo(2.8, 12);
    expect(at(2 ** 20).chunkBytes).toBe(19200 * (15 / 16));
    expect(at(8 * 2 ** 20).chunkBytes).toBe(38400 * (15 / 16));
    expect(at(32 * 2 ** 20).chunkBytes).toBe(76800 * (15 / 16));
    expect(at(2 ** 30).chunkBytes).toBe(614400 * (15 / 16));
    // Under one chunk per channel a buffer still crosses every step; the share then rises with size.
    expect(treeLl128Ramp(c, 24, 2 ** 18)).toBeCloseTo(1 / 3.8, 12);
    expect(treeLl128Ramp(c, 24, 32 * 2 ** 20)).toBeGreaterThan(0.85);
  });

  it('prints a table with every modelled row and names what is not modelled', () => {
    const md = sweepMarkdown();
    for (const s of PUBLISHED_SWEEPS) expect(md).toContain(s.id);
    expect(md).toMatch(/held-out: \d+\/\d+ within/);
  });
});

/** Held-out points within ±10 %, within ±25 %, beyond ±50 % (any list). */
const HELD_OUT_BANDS = [50, 92, 4];
