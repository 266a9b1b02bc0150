import type * as tf from '@tensorflow/tfjs';

/** What a held tensor is for, following the ZeRO paper's split of model states plus the temporaries. */
export type MemoryCategory =
  'params' | 'grads' | 'optimizerState' | 'gathered' | 'buckets' | 'activations';

export const MEMORY_CATEGORIES: readonly MemoryCategory[] = [
  'params',
  'grads',
  'optimizerState',
  'gathered',
  'buckets',
  'activations',
];

export type MemoryBreakdown = Record<MemoryCategory, number>;

/** Bytes held now, by category, and the high-water marks since the last {@link MemoryLedger.resetPeak}. */
export interface MemorySnapshot {
  current: MemoryBreakdown;
  /** Highest `current` total seen. */
  peak: number;
  /** Highest value each category reached (not necessarily at the same moment). */
  peakByCategory: MemoryBreakdown;
  total: number;
}

const BYTES_PER_ELEMENT: Record<string, number> = {
  float32: 4,
  int32: 4,
  bool: 1,
  complex64: 8,
  string: 0,
};

function zeroBreakdown(): MemoryBreakdown {
  return { params: 0, grads: 0, optimizerState: 0, gathered: 0, buckets: 0, activations: 0 };
}

/**
 * Measures the bytes a rank actually holds: trainers register every tensor they keep (`hold`) and
 * every one they free (`release`); sizes come from the tensors themselves, never from a formula.
 */
export class MemoryLedger {
  private readonly live = new Map<number, { category: MemoryCategory; bytes: number }>();
  private readonly current = zeroBreakdown();
  private readonly peaks = zeroBreakdown();
  private peakTotal = 0;

  /** Start counting `tensors` under `category`; holding the same tensor twice is an error. */
  hold(category: MemoryCategory, ...tensors: tf.Tensor[]): void {
    for (const t of tensors) {
      if (this.live.has(t.id))
        throw new Error(
          `MemoryLedger: tensor ${t.id} is already held as ${this.live.get(t.id)!.category}`,
        );
      const bytes = t.size * (BYTES_PER_ELEMENT[t.dtype] ?? 4);
      this.live.set(t.id, { category, bytes });
      this.current[category] += bytes;
    }
    this.notePeak();
  }

  /** Stop counting `tensors` (call just before disposing them); unknown tensors are ignored. */
  release(...tensors: tf.Tensor[]): void {
    for (const t of tensors) {
      const entry = this.live.get(t.id);
      if (!entry) continue;
      this.live.delete(t.id);
      this.current[entry.category] -= entry.bytes;
    }
  }

  /** Release and dispose in one call. */
  free(...tensors: tf.Tensor[]): void {
    this.release(...tensors);
    for (const t of tensors) t.dispose();
  }

  bytes(category: MemoryCategory): number {
    return this.current[category];
  }

  snapshot(): MemorySnapshot {
    const current = { ...this.current };
    return {
      current,
      peak: this.peakTotal,
      peakByCategory: { ...this.peaks },
      total: sum(current),
    };
  }

  resetPeak(): void {
    Object.assign(this.peaks, this.current);
    this.peakTotal = sum(this.current);
  }

  private notePeak(): void {
    for (const c of MEMORY_CATEGORIES) this.peaks[c] = Math.max(this.peaks[c], this.current[c]);
    this.peakTotal = Math.max(this.peakTotal, sum(this.current));
  }
}

function sum(b: MemoryBreakdown): number {
  return MEMORY_CATEGORIES.reduce((n, c) => n + b[c], 0);
}
