import { createCipheriv, createDecipheriv, createHash, createPrivateKey, createPublicKey, diffieHellman, generateKeyPairSync, hkdfSync, randomBytes } from 'node:crypto';

/** A runner's token or registration token: 32 random bytes, base64 (Semaphore's format). */
export function newRunnerToken(): string {
  return randomBytes(32).toString('base64');
}

/** Tokens are stored only as this hash. */
export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** An X25519 key pair in PEM: the public half stays on the server, the private half goes to the runner once. */
export function newRunnerKeyPair(): { publicKey: string; privateKey: string } {
  const { publicKey, privateKey } = generateKeyPairSync('x25519');
  return {
    publicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}

/** What travels to a runner: an ephemeral public key and AES-256-GCM ciphertext, all base64. */
export interface SealedBox { epk: string; iv: string; tag: string; data: string }

function boxKey(shared: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', shared, Buffer.alloc(0), 'signalbox-runner-job', 32));
}

/**
 * Encrypts `plain` to the runner whose public key is `publicKeyPem` (ECIES: X25519 + HKDF + AES-GCM).
 * @example const box = sealFor(runner.public_key, JSON.stringify(secrets));
 */
export function sealFor(publicKeyPem: string, plain: string): SealedBox {
  const eph = generateKeyPairSync('x25519');
  const shared = diffieHellman({ privateKey: eph.privateKey, publicKey: createPublicKey(publicKeyPem) });
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', boxKey(shared), iv);
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return {
    epk: eph.publicKey.export({ type: 'spki', format: 'der' }).toString('base64'),
    iv: iv.toString('base64'), tag: cipher.getAuthTag().toString('base64'), data: data.toString('base64'),
  };
}

/** The runner's side of `sealFor`. Throws when the box was not sealed for this key or was altered. */
export function openSealed(privateKeyPem: string, box: SealedBox): string {
  const epk = createPublicKey({ key: Buffer.from(box.epk, 'base64'), format: 'der', type: 'spki' });
  const shared = diffieHellman({ privateKey: createPrivateKey(privateKeyPem), publicKey: epk });
  const decipher = createDecipheriv('aes-256-gcm', boxKey(shared), Buffer.from(box.iv, 'base64'));
  decipher.setAuthTag(Buffer.from(box.tag, 'base64'));
  return Buffer.concat([decipher.update(Buffer.from(box.data, 'base64')), decipher.final()]).toString('utf8');
}
