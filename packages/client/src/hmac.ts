/**
 * HMAC-SHA256 as lowercase hex, by the fastest means the runtime offers.
 *
 * Web Crypto is everywhere but costs many times more per signature on Node (a promise and a
 * thread-pool hop per call) than Node's synchronous `createHmac`. The client may not import a Node
 * module (bundlers for the edge would fail on it, and a dynamic import would make every call
 * async and every bundler guess), so Node's is looked up at run time with
 * `globalThis.process?.getBuiltinModule` (Node >= 20.16 / 22.3, Bun, Deno): property reads that
 * no bundler resolves, absent on edge runtimes and in browsers (and on Node < 20.16), which then
 * use Web Crypto. Both give the same bytes: secret and text are UTF-8 encoded either way.
 */

interface NodeHmac {
  update(text: string): NodeHmac;
  digest(encoding: 'hex'): string;
}
type CreateHmac = (algorithm: 'sha256', key: string) => NodeHmac;

function nodeCreateHmac(): CreateHmac | undefined {
  try {
    const g = globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } };
    // The bare id (not the node: form) keeps the bundle free of anything resolvable.
    const crypto = g.process?.getBuiltinModule?.('crypto') as { createHmac?: unknown } | undefined;
    return typeof crypto?.createHmac === 'function' ? (crypto.createHmac as CreateHmac) : undefined;
  } catch {
    return undefined;
  }
}

const createHmac = nodeCreateHmac();

/** Which implementation signs in this runtime (for tests and the bench). */
export const hmacImplementation: 'node' | 'webcrypto' = createHmac ? 'node' : 'webcrypto';

const utf8 = new TextEncoder();
// One client uses one secret: keep its imported key rather than import it on every request.
let lastSecret: string | undefined;
let lastKey: Promise<CryptoKey> | undefined;

/** Web Crypto HMAC-SHA256 of `text` keyed with `secret`, as 64 lowercase hex characters. */
export async function webCryptoHmacHex(secret: string, text: string): Promise<string> {
  if (secret !== lastSecret || lastKey === undefined) {
    lastSecret = secret;
    lastKey = crypto.subtle.importKey('raw', utf8.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    lastKey.catch(() => (lastSecret = undefined)); // a failed import is not kept
  }
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', await lastKey, utf8.encode(text)));
  let hex = '';
  for (const byte of mac) hex += (byte < 16 ? '0' : '') + byte.toString(16);
  return hex;
}

/** HMAC-SHA256 of `text` keyed with `secret`, as 64 lowercase hex characters. */
export function hmacHex(secret: string, text: string): string | Promise<string> {
  return createHmac ? createHmac('sha256', secret).update(text).digest('hex') : webCryptoHmacHex(secret, text);
}
