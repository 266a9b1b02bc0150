import { selectBackend, useBackend } from './backend-order.ts';
import type { BackendPlatform } from './rank-protocol.ts';

/** Backends in a Node worker thread: no WebGPU; WASM from the package's own files; CPU. */
export const nodeBackends: BackendPlatform = {
  select: (tf, choice) =>
    selectBackend(tf, choice, {
      async webgpu() {
        throw new Error('Node has no WebGPU');
      },
      async wasm(tf) {
        await import('@tensorflow/tfjs-backend-wasm');
        tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
        await useBackend(tf, 'wasm');
      },
      async cpu(tf) {
        await useBackend(tf, 'cpu');
      },
    }),
};
