import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * API secrets at rest: AES-256-GCM under the master key. Sealed form: `<fingerprint>.<base64 of
 * iv(12) | tag(16) | ciphertext>`, where the fingerprint (8 hex chars) names the master key, so
 * a box holding the current and previous master keys opens secrets sealed under either while a
 * rotation re-seals them. The owner id (key id) is bound as associated data, so a sealed secret
 * copied onto another row does not open.
 */
export class SecretBox {
  readonly #current: { key: Buffer; fingerprint: string };
  readonly #all = new Map<string, Buffer>();

  constructor(current: Buffer, previous: Buffer[] = []) {
    for (const key of [current, ...previous]) {
      if (key.length !== 32) throw new Error('master key must be 32 bytes');
      this.#all.set(fingerprint(key), key);
    }
    this.#current = { key: current, fingerprint: fingerprint(current) };
  }

  get fingerprint(): string {
    return this.#current.fingerprint;
  }

  seal(plaintext: string | Buffer, ownerId: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#current.key, iv);
    cipher.setAAD(Buffer.from(ownerId));
    const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
    return `${this.#current.fingerprint}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`;
  }

  open(sealed: string, ownerId: string): Buffer {
    const dot = sealed.indexOf('.');
    const key = this.#all.get(sealed.slice(0, dot));
    if (dot !== 8 || !key)
      throw new Error(`secret of ${ownerId} is sealed under master key ${sealed.slice(0, 8)}, which is not configured`);
    const raw = Buffer.from(sealed.slice(dot + 1), 'base64');
    const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
    decipher.setAAD(Buffer.from(ownerId));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]);
  }

  /** True when `sealed` is already under the current master key. */
  isCurrent(sealed: string): boolean {
    return sealed.startsWith(this.#current.fingerprint + '.');
  }
}

/** A public name for a master key: not reversible, enough to pick the right key to open with. */
export function fingerprint(key: Buffer): string {
  return createHash('sha256').update('hostpay master key fingerprint').update(key).digest('hex').slice(0, 8);
}
