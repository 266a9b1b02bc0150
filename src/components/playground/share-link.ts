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

/** Longest hash a share link may have: a playground's code deflates to far less. */
export const MAX_LINK_CHARS = 200_000;
/** Most code a share link may inflate to; inflating stops as soon as it is passed. */
export const MAX_SHARED_CODE_BYTES = 1 << 20;

async function pipe(
  bytes: Uint8Array,
  stream: CompressionStream | DecompressionStream,
): Promise<Uint8Array> {
  const out = new Response(new Blob([bytes as BlobPart]).stream().pipeThrough(stream));
  return new Uint8Array(await out.arrayBuffer());
}

/** Inflates at most `limit` bytes, cancelling the stream as soon as there are more. */
async function inflateAtMost(bytes: Uint8Array, limit: number): Promise<Uint8Array> {
  const reader = new Blob([bytes as BlobPart])
    .stream()
    .pipeThrough(new DecompressionStream('deflate-raw'))
    .getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw new ShareLinkError(
        `This share link holds more than ${limit / (1 << 20)} MB of code, far more than a playground program, so it was not opened.`,
      );
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/** A share link that cannot be opened, with the reason in the reader's words. */
export class ShareLinkError extends Error {}

export async function shareUrl(
  id: string,
  code: string,
  base: string = location.href,
): Promise<string> {
  const packed = await pipe(new TextEncoder().encode(code), new CompressionStream('deflate-raw'));
  const url = new URL(base);
  url.hash = `${PREFIX.slice(1)}${id}=${toBase64Url(packed)}`;
  return url.toString();
}

/**
 * The playground id a hash addresses, without decoding the code (cheap enough for every page load);
 * null when the hash is not a share link. Throws ShareLinkError when the id itself is damaged.
 */
export function sharedId(hash: string = location.hash): string | null {
  if (!hash.startsWith(PREFIX)) return null;
  const eq = hash.indexOf('=');
  if (eq <= PREFIX.length) throw new ShareLinkError(DAMAGED);
  try {
    return decodeURIComponent(hash.slice(PREFIX.length, eq));
  } catch {
    throw new ShareLinkError(DAMAGED);
  }
}

const DAMAGED =
  'This share link is damaged (it was probably cut short when copied), so its code could not be read.';

/** Decodes the shared code, or throws a ShareLinkError saying why the link cannot be opened. */
export async function sharedCode(hash: string = location.hash): Promise<string> {
  if (hash.length > MAX_LINK_CHARS)
    throw new ShareLinkError(
      `This share link is ${Math.round(hash.length / 1000)} kB long, far longer than any playground program needs, so it was not opened.`,
    );
  const eq = hash.indexOf('=');
  let packed: Uint8Array;
  try {
    packed = fromBase64Url(hash.slice(eq + 1));
  } catch {
    throw new ShareLinkError(DAMAGED);
  }
  let bytes: Uint8Array;
  try {
    bytes = await inflateAtMost(packed, MAX_SHARED_CODE_BYTES);
  } catch (e) {
    throw e instanceof ShareLinkError ? e : new ShareLinkError(DAMAGED);
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new ShareLinkError(DAMAGED);
  }
}
