import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * API secrets at rest: AES-256-GCM under the master key. The sealed form is base64 of
 * iv(12) | tag(16) | ciphertext, and the key id is bound as associated data so a sealed secret
 * copied onto another key row does not open.
 */
export class SecretBox {
  readonly #key: Buffer;
  constructor(masterKey: Buffer) {
    if (masterKey.length !== 32) throw new Error('master key must be 32 bytes');
    this.#key = masterKey;
  }

  seal(plaintext: string, keyId: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    cipher.setAAD(Buffer.from(keyId));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
  }

  open(sealed: string, keyId: string): Buffer {
    const raw = Buffer.from(sealed, 'base64');
    const decipher = createDecipheriv('aes-256-gcm', this.#key, raw.subarray(0, 12));
    decipher.setAAD(Buffer.from(keyId));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]);
  }

  /** A purpose-bound key derived from the master key (e.g. the token signing key). */
  derive(purpose: string): Buffer {
    return Buffer.from(hkdfSync('sha256', this.#key, Buffer.alloc(0), `hostpay:${purpose}`, 32));
  }
}
