/** Issue 34, item 5: a share link never pushes out the reader's own versions, however many links follow. */
import { beforeEach, describe, expect, it } from 'vitest';
import {
  forgetEditsBeforeShare,
  keepEditsBeforeShare,
  loadEditsBeforeShare,
  loadVersions,
  MAX_VERSIONS,
  noteSharedCode,
} from '../../../src/components/playground/saved-edits.ts';

/** localStorage as the browser keeps it: strings by key. */
class MemoryStorage {
  private map = new Map<string, string>();
  getItem = (k: string) => this.map.get(k) ?? null;
  setItem = (k: string, v: string) => void this.map.set(k, String(v));
  removeItem = (k: string) => void this.map.delete(k);
}

beforeEach(() => {
  (globalThis as { localStorage?: unknown }).localStorage = new MemoryStorage();
});

/** What playground-element.ts does when a link opens: keep what the editor held, then note the link's code. */
function openLink(id: string, editorHolds: string, linkCode: string) {
  keepEditsBeforeShare(id, editorHolds);
  noteSharedCode(id, linkCode);
}

describe('the reader’s versions survive share links', () => {
  it('two links in a row: the reader’s edits are still offered, not the first link’s code', () => {
    openLink('p', 'my edits', 'link A');
    openLink('p', 'link A', 'link B'); // the editor held link A's code, untouched
    expect(loadEditsBeforeShare('p')).toBe('my edits');
    expect(loadVersions('p').map((v) => v.code)).toEqual(['my edits']);
  });

  it('a tweak to the first link’s code is the reader’s too: both versions are kept, newest first', () => {
    openLink('p', 'my edits', 'link A');
    openLink('p', 'link A, tweaked', 'link B');
    expect(loadVersions('p').map((v) => v.code)).toEqual(['link A, tweaked', 'my edits']);
  });

  it(`keeps the newest ${MAX_VERSIONS}, each once; restoring stops the offer but keeps the versions`, () => {
    for (let i = 0; i < MAX_VERSIONS + 3; i++)
      openLink('p', `mine ${i % (MAX_VERSIONS + 1)}`, `link ${i}`);
    const codes = loadVersions('p').map((v) => v.code);
    expect(codes).toHaveLength(MAX_VERSIONS);
    expect(new Set(codes).size).toBe(MAX_VERSIONS);
    expect(codes[0]).toBe(`mine ${(MAX_VERSIONS + 2) % (MAX_VERSIONS + 1)}`);
    forgetEditsBeforeShare('p');
    expect(loadEditsBeforeShare('p')).toBeNull();
    expect(loadVersions('p')).toHaveLength(MAX_VERSIONS);
  });

  it('a slot an earlier build kept is read as a version; a damaged list reads as none', () => {
    localStorage.setItem('ranks:playground-before-share:p', 'old slot');
    expect(loadEditsBeforeShare('p')).toBe('old slot');
    localStorage.setItem('ranks:playground-versions:q', '{not json');
    expect(loadVersions('q')).toEqual([]);
  });
});
