/**
 * Issue 34, item 1: the browser rank's scope loses this origin's storage and nested contexts. A stand-in for a
 * worker's global, shaped as Web IDL shapes it (getters on the prototypes, constructors on the instance); the
 * real worker is checked by tests/e2e/safety.spec.ts ("a rank cannot reach this origin's storage").
 */
import { describe, expect, it } from 'vitest';
import { compileProgram, programBody } from '../../../playground/rank/compile.ts';
import {
  SEALED_GLOBALS,
  SEALED_NAVIGATOR,
  sealBrowserScope,
  sealedNamesIn,
  sealedNotice,
  unsealed,
} from '../../../playground/rank/seal-browser-scope.ts';

function fakeWorkerScope() {
  const storage = { getDirectory: () => 'opfs' };
  class WorkerNavigator {
    get storage() {
      return storage;
    }
    get locks() {
      return {};
    }
  }
  class WorkerGlobalScope {
    get caches() {
      return { open: () => 'cache' };
    }
    get indexedDB() {
      return { open: () => 'db' };
    }
  }
  class DedicatedWorkerGlobalScope extends WorkerGlobalScope {}
  const scope = new DedicatedWorkerGlobalScope() as unknown as Record<string, unknown>;
  Object.assign(scope, {
    navigator: new WorkerNavigator(),
    Worker: class {},
    SharedWorker: class {},
    BroadcastChannel: class {},
    fetch: () => 'kept',
  });
  return { scope, WorkerGlobalScope, WorkerNavigator };
}

describe('sealBrowserScope', () => {
  it('leaves none of the storage, worker and channel names reachable, on the scope or its prototypes', () => {
    const { scope, WorkerGlobalScope, WorkerNavigator } = fakeWorkerScope();
    expect(unsealed(scope)).toEqual(
      expect.arrayContaining(['caches', 'indexedDB', 'Worker', 'navigator.storage']),
    );
    sealBrowserScope(scope);
    expect(unsealed(scope)).toEqual([]);
    for (const name of SEALED_GLOBALS) expect(scope[name]).toBeUndefined();
    const nav = scope.navigator as Record<string, unknown>;
    for (const name of SEALED_NAVIGATOR) expect(nav[name]).toBeUndefined();
    // The getters are gone from the prototypes too, so .call(scope) has nothing to call.
    expect(Object.getOwnPropertyDescriptor(WorkerGlobalScope.prototype, 'caches')).toBeUndefined();
    expect(Object.getOwnPropertyDescriptor(WorkerNavigator.prototype, 'storage')).toBeUndefined();
    expect(scope.fetch).toBeTypeOf('function');
  });

  it('the program cannot put them back: assignment, defineProperty and delete all fail', () => {
    const { scope } = fakeWorkerScope();
    sealBrowserScope(scope);
    expect(() => {
      'use strict';
      scope.caches = {};
    }).toThrow(TypeError);
    expect(() => Object.defineProperty(scope, 'indexedDB', { get: () => ({}) })).toThrow(TypeError);
    expect(Reflect.deleteProperty(scope, 'Worker')).toBe(false);
    expect(() =>
      Object.defineProperty(Object.getPrototypeOf(scope), 'caches', { get: () => ({}) }),
    ).not.toThrow(); // a prototype getter is shadowed by the pinned own property:
    expect(scope.caches).toBeUndefined();
    const nav = scope.navigator as Record<string, unknown>;
    expect(Reflect.set(nav, 'storage', {})).toBe(false);
    expect(nav.storage).toBeUndefined();
  });
});

describe('a program that mentions a sealed name is told why it is undefined', () => {
  it('names what the program mentions, in code and strings, not in comments', () => {
    expect(
      sealedNamesIn(`// caches were here
const c = (globalThis as any)['indexedDB']; /* new Worker(...) */
await navigator.storage?.estimate();`),
    ).toEqual(['indexedDB', 'navigator.storage']);
    expect(sealedNamesIn('const workers = 4; console.log("Cacheable")')).toEqual([]);
  });

  it('prints one line that says what a rank may not reach and why, or nothing', () => {
    expect(sealedNotice('const x = 1;')).toBeNull();
    const note = sealedNotice("await caches.open('x'); new Worker('y');")!;
    expect(note).toMatch(
      /^caches, Worker are undefined in a rank: a program may not reach this site's storage/,
    );
    expect(note).toContain('cannot change the book or read your saved work');
  });
});

describe('the rank scans the reader’s code, not what the compiler wraps it in', () => {
  it('a plain program gets no notice; the wrapper’s own scope names (BroadcastChannel…) do not count', () => {
    expect(sealedNotice(programBody(compileProgram('console.log(1);')))).toBeNull();
    expect(sealedNamesIn(programBody(compileProgram('new Worker("w.js");')))).toEqual(['Worker']);
  });
});
