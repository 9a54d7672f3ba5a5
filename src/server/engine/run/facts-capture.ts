import { closeSync, constants, fstatSync, mkdirSync, openSync, readSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Db } from '../../db/database.ts';
import { ANSIBLE_FACTS_CALLBACK, FACTS_CALLBACK_NAME } from '../apps/ansible-facts-callback.ts';
import { readFactsFile, saveHostFacts } from '../../domain/tasks/host-facts.ts';

/** Where an Ansible run's callback writes the facts it gathered, and the callback's folder. */
export interface FactsCapture { file: string; callbackDir: string }

/** a facts file above this is not read (20,000 hosts of four short facts fit well below) */
const FILE_MAX = 16 * 1024 * 1024;

/**
 * The facts callback of an Ansible run, inside its task directory (handed to the task user with it).
 * @example const capture = prepareFactsCapture('/tmp/semaphore/task_7'); // capture.file: .../signalbox_facts.json
 */
export function prepareFactsCapture(taskDir: string): FactsCapture {
  const callbackDir = join(taskDir, 'signalbox_callbacks');
  mkdirSync(callbackDir, { mode: 0o700 });
  writeFileSync(join(callbackDir, `${FACTS_CALLBACK_NAME}.py`), ANSIBLE_FACTS_CALLBACK, { mode: 0o600 });
  return { file: join(taskDir, `${FACTS_CALLBACK_NAME}.json`), callbackDir };
}

/**
 * Stores what the callback wrote, if anything: the run may have gathered no facts (no file). The
 * file belongs to the task's identity, so it is read as a regular file only (no link followed), bounded.
 * @example const hosts = await keepCapturedFacts(db, task, capture); // number of hosts stored
 */
export async function keepCapturedFacts(db: Db, task: { id: number; project_id: number }, capture: FactsCapture): Promise<number> {
  const text = readOwnFile(capture.file);
  if (text === null) return 0;
  const hosts = readFactsFile(text);
  if (hosts.size) await saveHostFacts(db, task, hosts);
  return hosts.size;
}

function readOwnFile(path: string): string | null {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return null;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile() || stat.size > FILE_MAX) return null;
    const buffer = Buffer.alloc(stat.size);
    let read = 0;
    while (read < stat.size) {
      const n = readSync(fd, buffer, read, stat.size - read, read);
      if (n === 0) break;
      read += n;
    }
    return buffer.subarray(0, read).toString('utf8');
  } finally {
    closeSync(fd);
  }
}
