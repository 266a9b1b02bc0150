declare module 'virtual:ranks-editor-types' {
  const files: Record<string, string>;
  export default files;
}
