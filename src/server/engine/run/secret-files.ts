import { chownSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { TaskUser } from '../process/task-user.ts';

/**
 * Owner-only (0600) files for secrets a tool must read from disk (keys, vault passwords,
 * extra-vars with passwords), all removed by `removeAll()` when the run ends. With a task user,
 * the files and their folder belong to it (only it and root can read them).
 * @example const files = new SecretFiles(tmp); const path = files.write('vault', pw); ... files.removeAll();
 */
export class SecretFiles {
  readonly #dir: string;
  readonly #paths: string[] = [];
  readonly #owner: TaskUser | null;

  constructor(dir: string, owner: TaskUser | null = null) {
    this.#dir = dir;
    this.#owner = owner;
  }

  write(label: string, content: string, mode = 0o600): string {
    mkdirSync(this.#dir, { recursive: true, mode: 0o700 });
    this.#own(this.#dir);
    return this.writeAt(join(this.#dir, `.${label}-${randomBytes(6).toString('hex')}`), content, mode);
  }

  /** Writes at a fixed path (e.g. `inventory_<taskId>`), removed with the rest. */
  writeAt(path: string, content: string, mode = 0o600): string {
    writeFileSync(path, content, { mode });
    this.#own(path);
    this.#paths.push(path);
    return path;
  }

  #own(path: string): void {
    if (this.#owner) chownSync(path, this.#owner.uid, this.#owner.gid);
  }

  removeAll(): void {
    for (const path of this.#paths.splice(0)) rmSync(path, { force: true });
  }
}
