/** What a secret becomes in task output. */
export const MASK = '********';

/** Shorter values are not masked: hiding every "a" or "42" would make logs unreadable. */
export const MIN_MASKED_LENGTH = 4;

/**
 * Replaces every secret value in an output line with `********` (GitLab's masked variables).
 * Multi-line secrets (private keys) are masked line by line, and each value also in its
 * JSON-escaped form (how ansible prints strings). Longer values are replaced first, so a secret
 * that contains another is hidden whole.
 * @example new SecretMask(['hunter22']).apply('password=hunter22') // 'password=********'
 */
export class SecretMask {
  readonly #values: string[];

  constructor(secrets: Iterable<string>) {
    const values = new Set<string>();
    for (const secret of secrets) {
      for (const part of secret.split(/\r?\n/)) {
        const trimmed = part.trim();
        if (trimmed.length < MIN_MASKED_LENGTH) continue;
        values.add(trimmed);
        const escaped = JSON.stringify(trimmed).slice(1, -1);
        if (escaped !== trimmed) values.add(escaped);
      }
    }
    this.#values = [...values].sort((a, b) => b.length - a.length);
  }

  get empty(): boolean {
    return this.#values.length === 0;
  }

  apply(line: string): string {
    let out = line;
    for (const value of this.#values) if (out.includes(value)) out = out.split(value).join(MASK);
    return out;
  }
}
