import {
  BACKENDS,
  BACKEND_CHOICES,
  listWords,
  type Backend,
  type BackendChoice,
} from '../contract/protocol.ts';

type Tf = typeof import('@tensorflow/tfjs');

/** One way to get a backend: resolves when `tf` runs on it, throws with the reason it cannot. */
export type BackendAttempt = (tf: Tf) => Promise<void>;

const ORDER: readonly Backend[] = BACKENDS;

/**
 * Tries the backends in the book's order (WebGPU, WASM, CPU), starting at the forced one if any,
 * and says why each earlier one was skipped.
 */
export async function selectBackend(
  tf: Tf,
  choice: BackendChoice,
  attempts: Record<Backend, BackendAttempt>,
): Promise<{ backend: Backend; reason?: string }> {
  const from = choice === 'auto' ? 0 : ORDER.indexOf(choice);
  if (from < 0) throw new Error(`unknown backend '${choice}': use ${listWords(BACKEND_CHOICES)}`);
  const skipped: string[] = [];
  for (const backend of ORDER.slice(from)) {
    try {
      await attempts[backend](tf);
      await tf.ready();
      if (tf.getBackend() !== backend) throw new Error(`tfjs reports backend ${tf.getBackend()}`);
      return skipped.length ? { backend, reason: skipped.join('; ') } : { backend };
    } catch (e) {
      skipped.push(`${backend} unavailable: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  throw new Error(`no tfjs backend could start: ${skipped.join('; ')}`);
}

/** Sets a registered backend, turning tfjs's `false` into an error. */
export async function useBackend(tf: Tf, name: Backend): Promise<void> {
  if (!(await tf.setBackend(name))) throw new Error(`tf.setBackend('${name}') failed`);
}
