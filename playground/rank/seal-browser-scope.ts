/**
 * Takes this origin's persistent storage and every way to start or reach another context out of a rank
 * worker's global scope, before any program runs. A program that could open Cache Storage could overwrite the
 * offline copy's cached scripts and run on every later page load; IndexedDB, the origin-private file system and
 * the old FileSystem API would carry data from one program to the next (or read what the site keeps); a nested
 * Worker, SharedWorker or BroadcastChannel would reach past the rank. Each name is deleted from the global
 * object and every prototype on its chain (where the Web IDL getters live), then pinned on the global as an
 * undefined, non-writable, non-configurable property, so the program cannot define it again. A dedicated
 * worker has no way to make a fresh realm (no iframes; Worker and SharedWorker are gone), so the deleted
 * getters cannot be fetched from elsewhere. What remains reachable: `fetch` of this site's own files (the CSP
 * refuses other origins) and the rank's own memory.
 */

/** On the worker's global scope (and its prototype chain). */
export const SEALED_GLOBALS = [
  'caches',
  'CacheStorage',
  'Cache',
  'indexedDB',
  'IDBFactory',
  'Worker',
  'SharedWorker',
  'ServiceWorker',
  'ServiceWorkerContainer',
  'ServiceWorkerRegistration',
  'BroadcastChannel',
  'StorageManager',
  'StorageBucketManager',
  'StorageBucket',
  'FileSystemHandle',
  'FileSystemFileHandle',
  'FileSystemDirectoryHandle',
  'FileSystemSyncAccessHandle',
  'FileSystemWritableFileStream',
  'webkitRequestFileSystem',
  'webkitRequestFileSystemSync',
  'webkitResolveLocalFileSystemURL',
  'webkitResolveLocalFileSystemSyncURL',
  'cookieStore',
  'CookieStore',
  'LockManager',
] as const;

/** On `navigator` (WorkerNavigator.prototype holds the getters). */
export const SEALED_NAVIGATOR = ['storage', 'storageBuckets', 'serviceWorker', 'locks'] as const;

/** Deletes `name` from `target` and each prototype above it; then pins it undefined on `target`. */
function seal(target: object, name: string): void {
  for (let o: object | null = target; o !== null; o = Object.getPrototypeOf(o) as object | null)
    if (Object.getOwnPropertyDescriptor(o, name)?.configurable) Reflect.deleteProperty(o, name);
  const own = Object.getOwnPropertyDescriptor(target, name);
  if (!own || own.configurable)
    Object.defineProperty(target, name, {
      value: undefined,
      writable: false,
      configurable: false,
      enumerable: false,
    });
}

/** Names that are still reachable (not undefined) after sealing: must be none. */
export function unsealed(scope: object = globalThis): string[] {
  const g = scope as Record<string, unknown>;
  const nav = g.navigator as Record<string, unknown> | undefined;
  return [
    ...SEALED_GLOBALS.filter((n) => g[n] !== undefined),
    ...(nav
      ? SEALED_NAVIGATOR.filter((n) => nav[n] !== undefined).map((n) => `navigator.${n}`)
      : []),
  ];
}

let sealed = false;

/**
 * Idempotent; call once at the top of the browser rank worker's entry. Throws if anything stays reachable,
 * so a browser that will not let go of one fails every run with the reason instead of running unsealed.
 */
export function sealBrowserScope(scope: object = globalThis): void {
  if (sealed && scope === globalThis) return;
  if (scope === globalThis) sealed = true;
  for (const name of SEALED_GLOBALS) seal(scope, name);
  const nav = (scope as { navigator?: object }).navigator;
  if (nav) for (const name of SEALED_NAVIGATOR) seal(nav, name);
  const left = unsealed(scope);
  if (left.length)
    throw new Error(`This browser would not remove ${left.join(', ')} from the rank's scope`);
}

/** The sealed names `source` mentions as words outside comments (strings count: g['caches']), so the rank can say why they are undefined. */
export function sealedNamesIn(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, ' ');
  const words = new Set(code.match(/[A-Za-z_$][\w$]*/g) ?? []);
  return [
    ...SEALED_GLOBALS.filter((n) => words.has(n)),
    ...SEALED_NAVIGATOR.filter((n) => words.has(n) && words.has('navigator')).map(
      (n) => `navigator.${n}`,
    ),
  ];
}

/** What a rank prints before a program that mentions sealed names runs; null when it mentions none. */
export function sealedNotice(source: string): string | null {
  const names = sealedNamesIn(source);
  if (names.length === 0) return null;
  return `${names.join(', ')} ${names.length === 1 ? 'is' : 'are'} undefined in a rank: a program may not reach this site's storage (Cache Storage, IndexedDB, file systems, cookies, locks), start workers or open channels, so that a shared program cannot change the book or read your saved work. fetch of this site's own files still works.`;
}
