/** Lets queued tasks (collective progress, Atomics.waitAsync wake-ups, messages) run between layers of compute. */
export function yieldToEventLoop(): Promise<void> {
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
