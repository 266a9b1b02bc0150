import wasmPlainUrl from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm?url';
import wasmSimdUrl from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-simd.wasm?url';
import wasmThreadedUrl from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-threaded-simd.wasm?url';
import { selectBackend, useBackend } from './backend-order.ts';
import type { BackendPlatform } from './rank-protocol.ts';

/** Backends in a browser worker: WebGPU only with a real adapter, WASM from bundled files (no CDN), then CPU. */
export const browserBackends: BackendPlatform = {
  select: (tf, choice) =>
    selectBackend(tf, choice, {
      async webgpu(tf) {
        const gpu = (navigator as Navigator & { gpu?: { requestAdapter(): Promise<unknown> } }).gpu;
        if (!gpu) throw new Error('this browser has no WebGPU');
        if (!(await gpu.requestAdapter())) throw new Error('no WebGPU adapter');
        await import('@tensorflow/tfjs-backend-webgpu');
        await useBackend(tf, 'webgpu');
      },
      async wasm(tf) {
        const wasm = await import('@tensorflow/tfjs-backend-wasm');
        wasm.setWasmPaths({
          'tfjs-backend-wasm.wasm': wasmPlainUrl,
          'tfjs-backend-wasm-simd.wasm': wasmSimdUrl,
          'tfjs-backend-wasm-threaded-simd.wasm': wasmThreadedUrl,
        });
        // Each rank is already a thread; tfjs's own worker pool would only fight the ranks for cores.
        tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
        await useBackend(tf, 'wasm');
      },
      async cpu(tf) {
        await useBackend(tf, 'cpu');
      },
    }),
};
