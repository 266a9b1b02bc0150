// comlink ships node-adapter.d.ts beside node-adapter.mjs, but TypeScript looks for .d.mts next to an .mjs import.
declare module 'comlink/dist/esm/node-adapter.mjs' {
  export { default } from 'comlink/dist/esm/node-adapter';
  export type { NodeEndpoint } from 'comlink/dist/esm/node-adapter';
}
