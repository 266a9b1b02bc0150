import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  contentSecurityPolicy,
  hashedAssetHeaders,
  hashedAssetPath,
  siteHeaders,
} from '../../../src/lib/site/host-headers.mjs';

describe('host headers (issue 19, item 10)', () => {
  it('public/_headers sends exactly the headers of the dev, preview and test servers, for every path', () => {
    const text = readFileSync('public/_headers', 'utf8');
    const lines = text.split('\n').filter((l) => l.trim() && !l.startsWith('#'));
    const rules: Record<string, Record<string, string>> = {};
    let path = '';
    for (const l of lines) {
      if (!/^\s/.test(l)) rules[(path = l.trim())] = {};
      else {
        const i = l.indexOf(':');
        rules[path]![l.slice(0, i).trim()] = l.slice(i + 1).trim();
      }
    }
    expect(Object.keys(rules)).toEqual(['/*', `${hashedAssetPath}*`]);
    expect(rules['/*']).toEqual(siteHeaders);
    expect(rules[`${hashedAssetPath}*`]).toEqual(hashedAssetHeaders);
  });

  it('the policy refuses other origins, plugins, framing and eval, and allows what the site needs', () => {
    const d = Object.fromEntries(
      contentSecurityPolicy.split('; ').map((p) => {
        const [k, ...v] = p.split(' ');
        return [k, v];
      }),
    );
    expect(d['default-src']).toEqual(["'self'"]);
    expect(d['connect-src']).toEqual(["'self'"]);
    expect(d['worker-src']).toEqual(["'self'", 'blob:']);
    expect(d['object-src']).toEqual(["'none'"]);
    expect(d['frame-ancestors']).toEqual(["'none'"]);
    expect(d['script-src']).not.toContain("'unsafe-eval'");
    expect(d['script-src']).not.toContain("'unsafe-inline'");
    expect(d['manifest-src']).toEqual(["'self'"]);
  });
});
