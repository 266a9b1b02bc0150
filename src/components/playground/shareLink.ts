/**
 * Share links carry a playground's code in the URL hash, deflated and base64url-encoded:
 * `#pg-<id>=<code>`. Opening one shows the code in the editor; it never runs by itself.
 */
const PREFIX = '#pg-';

function toBase64Url(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array {
  const s = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(s, (c) => c.charCodeAt(0));
}

async function pipe(bytes: Uint8Array, stream: CompressionStream | DecompressionStream): Promise<Uint8Array> {
  const out = new Response(new Blob([bytes as BlobPart]).stream().pipeThrough(stream));
  return new Uint8Array(await out.arrayBuffer());
}

export async function shareUrl(id: string, code: string, base: string = location.href): Promise<string> {
  const packed = await pipe(new TextEncoder().encode(code), new CompressionStream('deflate-raw'));
  const url = new URL(base);
  url.hash = `${PREFIX.slice(1)}${id}=${toBase64Url(packed)}`;
  return url.toString();
}

/** The playground id a hash addresses, without decoding it (cheap enough for every page load). */
export function sharedId(hash: string = location.hash): string | null {
  if (!hash.startsWith(PREFIX)) return null;
  const eq = hash.indexOf('=');
  return eq > PREFIX.length ? decodeURIComponent(hash.slice(PREFIX.length, eq)) : null;
}

/** Decodes the shared code, or throws a reader-facing error when the link is damaged. */
export async function sharedCode(hash: string = location.hash): Promise<string> {
  const eq = hash.indexOf('=');
  try {
    const bytes = await pipe(fromBase64Url(hash.slice(eq + 1)), new DecompressionStream('deflate-raw'));
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new Error('This share link is damaged (it was probably cut short when copied), so its code could not be read.');
  }
}
