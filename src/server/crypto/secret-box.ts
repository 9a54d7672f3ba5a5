import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Encrypts secrets at rest with AES-256-GCM, stored as base64(nonce ‖ ciphertext ‖ tag) —
 * the layout Semaphore uses, so its encrypted rows read back with the same key.
 * @example const box = new SecretBox(key); box.open(box.seal('s3cret')) === 's3cret'
 */
export class SecretBox {
  readonly #key: Buffer;
  constructor(base64Key: string) {
    this.#key = Buffer.from(base64Key, 'base64');
    if (this.#key.length !== 32) throw new Error('the access key encryption key must be 32 bytes');
  }

  seal(plain: string): string {
    const nonce = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#key, nonce);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return Buffer.concat([nonce, body]).toString('base64');
  }

  open(sealed: string): string {
    const raw = Buffer.from(sealed, 'base64');
    if (raw.length < 28) throw new Error('sealed secret is too short');
    const nonce = raw.subarray(0, 12);
    const tag = raw.subarray(raw.length - 16);
    const decipher = createDecipheriv('aes-256-gcm', this.#key, nonce);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(raw.subarray(12, raw.length - 16)), decipher.final()]).toString('utf8');
  }
}

export function newEncryptionKey(): string {
  return randomBytes(32).toString('base64');
}
