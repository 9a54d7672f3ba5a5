import { closeSync, constants, fstatSync, openSync, readlinkSync, readSync, realpathSync } from 'node:fs';
import { isAbsolute, normalize, sep } from 'node:path';
import type { SecretSourcesPolicy } from '../../config/config.ts';

/**
 * Keys whose value lives outside Signalbox on the server itself (Semaphore's `source_storage_type`
 * `env` and `file`): read at each task start, never stored. Only the sources the admin lists in
 * `secret_sources` may be named.
 */
export const EXTERNAL_SOURCE_TYPES = ['env', 'file'] as const;
export type ExternalSourceType = (typeof EXTERNAL_SOURCE_TYPES)[number];

export type { SecretSourcesPolicy };

/** A source could not be read (or is no longer allowed): the task fails with this reason. */
export class KeySourceError extends Error {}

/** Files larger than this are not key material; reading stops there instead of buffering the rest. */
const MAX_FILE_BYTES = 64 * 1024;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** the server's own settings (database password, encryption key) are never handed to a task */
const SERVER_OWN = /^(SEMAPHORE|SIGNALBOX)_/i;

export function isExternalSourceType(type: unknown): type is ExternalSourceType {
  return type === 'env' || type === 'file';
}

/**
 * Why the policy refuses this source, or null when allowed. `ref` is a variable name or a path;
 * paths are compared in their normal form, so `..` cannot step out of an allowed directory.
 * @example sourceRefusal({ env: ['DEPLOY_*'], dirs: [] }, 'env', 'DEPLOY_TOKEN') // null
 */
export function sourceRefusal(policy: SecretSourcesPolicy, type: ExternalSourceType, ref: string): string | null {
  if (type === 'env') {
    if (!ENV_NAME.test(ref)) return 'use an environment variable name (letters, digits, _)';
    if (SERVER_OWN.test(ref)) return `${ref} is one of the server's own settings`;
    return policy.env.some((entry) => envEntryMatches(entry, ref)) ? null : `${ref} is not among the allowed secret sources (secret_sources.env)`;
  }
  if (!isAbsolute(ref) || ref.includes('\0')) return 'use an absolute file path';
  const path = normalize(ref);
  return policy.dirs.some((dir) => isInside(dir, path)) ? null : `${path} is not inside an allowed directory (secret_sources.dirs)`;
}

/** The stored form of a reference: paths normalized, names as given. */
export function canonicalSourceRef(type: ExternalSourceType, ref: string): string {
  return type === 'file' ? normalize(ref) : ref;
}

/**
 * Reads a source now, checking it against the policy again (the list may have changed since the
 * key was made). Files are read through their real path, so a link out of an allowed directory
 * is refused too.
 * @example const token = readKeySource(config.secret_sources, 'file', '/run/secrets/deploy');
 */
export function readKeySource(policy: SecretSourcesPolicy, type: ExternalSourceType, ref: string, env: NodeJS.ProcessEnv = process.env): string {
  const refusal = sourceRefusal(policy, type, ref);
  if (refusal) throw new KeySourceError(refusal);
  if (type === 'env') {
    if (!Object.hasOwn(env, ref) || env[ref] === undefined) throw new KeySourceError(`the server has no environment variable ${ref}`);
    return env[ref]!;
  }
  return readAllowedFile(policy, ref);
}

function readAllowedFile(policy: SecretSourcesPolicy, ref: string): string {
  const fd = openSafely(ref);
  try {
    // judged by what was opened, not by the name: a link swapped in after a check cannot lead out
    if (!policy.dirs.some((dir) => isInside(realDir(dir), openedPath(fd, ref)))) throw new KeySourceError(`${ref} leads outside the allowed directories`);
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new KeySourceError(`${ref} is not a regular file`);
    if (stat.size > MAX_FILE_BYTES) throw new KeySourceError(`${ref} is larger than ${MAX_FILE_BYTES} bytes`);
    const buffer = Buffer.alloc(Math.min(stat.size, MAX_FILE_BYTES));
    const read = buffer.length ? readSync(fd, buffer, 0, buffer.length, 0) : 0;
    // one trailing newline is how files end, not part of the token
    return buffer.subarray(0, read).toString('utf8').replace(/\r?\n$/, '');
  } finally {
    closeSync(fd);
  }
}

/** The real path of an open file: Linux names it in /proc; elsewhere the name is resolved again. */
function openedPath(fd: number, ref: string): string {
  try {
    return readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    try {
      return realpathSync(ref);
    } catch {
      throw new KeySourceError(`the file ${ref} cannot be read`);
    }
  }
}

function openSafely(path: string): number {
  try {
    // non-blocking: a FIFO put where a file was expected must not hold the server up
    return openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    throw new KeySourceError(`the file ${path} cannot be read`);
  }
}

function realDir(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return normalize(dir);
  }
}

function isInside(dir: string, path: string): boolean {
  const base = normalize(dir).replace(/\/+$/, '');
  return path.startsWith(base + sep) && path.length > base.length + 1;
}

function envEntryMatches(entry: string, name: string): boolean {
  if (entry.endsWith('*')) return entry.length > 1 && name.startsWith(entry.slice(0, -1));
  return entry === name;
}
