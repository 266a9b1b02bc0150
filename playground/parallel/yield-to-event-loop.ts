import { currentResume } from '../collectives/rank-context.ts';

/**
 * Lets queued tasks (collective progress, Atomics.waitAsync wake-ups, messages) run between layers of compute;
 * a rank sharing its thread (rank/rank-host.ts) lets the other ranks run too and continues on its own turn.
 */
export async function yieldToEventLoop(): Promise<void> {
  const resume = currentResume();
  await nextTask();
  await resume?.();
}

function nextTask(): Promise<void> {
  const g = globalThis as { setImmediate?: (cb: () => void) => unknown };
  if (typeof g.setImmediate === 'function')
    return new Promise((resolve) => g.setImmediate!(resolve));
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}
