// sucrase ships its parser's types under dist/types; these shims point its CommonJS entry points at them.
declare module 'sucrase/dist/index.js' {
  export * from 'sucrase';
}
declare module 'sucrase/dist/parser/index.js' {
  export { parse } from 'sucrase/dist/types/parser/index';
}
declare module 'sucrase/dist/parser/tokenizer/types.js' {
  export { TokenType } from 'sucrase/dist/types/parser/tokenizer/types';
}
declare module 'sucrase/dist/parser/tokenizer/keywords.js' {
  export { ContextualKeyword } from 'sucrase/dist/types/parser/tokenizer/keywords';
}
