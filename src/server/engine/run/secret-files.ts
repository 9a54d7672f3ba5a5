import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';

/**
 * Owner-only (0600) files for secrets a tool must read from disk (keys, vault passwords,
 * extra-vars with passwords), all removed by `removeAll()` when the run ends.
 * @example const files = new SecretFiles(tmp); const path = files.write('vault', pw); ... files.removeAll();
 */
export class SecretFiles {
  readonly #dir: string;
  readonly #paths: string[] = [];

  constructor(dir: string) {
    this.#dir = dir;
  }

  write(label: string, content: string, mode = 0o600): string {
    mkdirSync(this.#dir, { recursive: true, mode: 0o700 });
    const path = join(this.#dir, `.${label}-${randomBytes(6).toString('hex')}`);
    writeFileSync(path, content, { mode });
    this.#paths.push(path);
    return path;
  }

  /** Writes at a fixed path (e.g. `inventory_<taskId>`), removed with the rest. */
  writeAt(path: string, content: string, mode = 0o600): string {
    writeFileSync(path, content, { mode });
    this.#paths.push(path);
    return path;
  }

  removeAll(): void {
    for (const path of this.#paths.splice(0)) rmSync(path, { force: true });
  }
}
