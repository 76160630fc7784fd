import { createHash } from 'node:crypto';

/**
 * The spelling check `hostpay init` makes of an extended public key before it writes anything:
 * Base58Check text of 78 bytes with a known version. Whether the key suits the chain (family,
 * network type) is the server's to say when the key is set; this only stops a pasted typo from
 * leaving a half-made merchant behind.
 */
const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** SLIP-132 versions of account-level public keys, each mapped to the xpub/tpub the server stores. */
const XPUB = '0488b21e';
const TPUB = '043587cf';
const VERSIONS: Record<string, string> = {
  [XPUB]: XPUB,
  '049d7cb2': XPUB, // ypub
  '04b24746': XPUB, // zpub
  [TPUB]: TPUB,
  '044a5262': TPUB, // upub
  '045f1cf6': TPUB, // vpub
};

const sha256d = (data: Buffer): Buffer =>
  createHash('sha256').update(createHash('sha256').update(data).digest()).digest();

function decode58(text: string): Buffer | null {
  let n = 0n;
  for (const ch of text) {
    const digit = ALPHABET.indexOf(ch);
    if (digit < 0) return null;
    n = n * 58n + BigInt(digit);
  }
  const hex = n === 0n ? '' : n.toString(16);
  const body = Buffer.from(hex.length % 2 === 0 ? hex : `0${hex}`, 'hex');
  const zeros = /^1*/.exec(text)![0].length;
  return Buffer.concat([Buffer.alloc(zeros), body]);
}

function encode58(data: Buffer): string {
  let n = BigInt(`0x${data.toString('hex') || '0'}`);
  let out = '';
  while (n > 0n) {
    out = ALPHABET[Number(n % 58n)] + out;
    n /= 58n;
  }
  for (const byte of data) {
    if (byte !== 0) break;
    out = `1${out}`;
  }
  return out;
}

/**
 * The key in the xpub/tpub spelling the server stores and shows (a zpub and its xpub are one
 * key), or null when the text is not an extended public key at all.
 */
export function normaliseXpub(text: string): string | null {
  const raw = decode58(text.trim());
  if (raw === null || raw.length !== 82) return null;
  const payload = raw.subarray(0, 78);
  if (!sha256d(payload).subarray(0, 4).equals(raw.subarray(78))) return null;
  const stored = VERSIONS[payload.subarray(0, 4).toString('hex')];
  if (stored === undefined) return null;
  const out = Buffer.from(payload);
  Buffer.from(stored, 'hex').copy(out, 0);
  return encode58(Buffer.concat([out, sha256d(out).subarray(0, 4)]));
}
