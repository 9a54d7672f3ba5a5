import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, readdir, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import type { AuditSettings } from '../config/config.ts';
import { rawLine, type AuditSink, type ExportedAuditEvent } from './audit-record.ts';

const MEGABYTE = 1024 * 1024;

/**
 * Semaphore's activity file (`log.events`): one line per event, appended and flushed to disk
 * before the batch counts as delivered. When the next batch would pass `maxsize` MB the file is
 * renamed to `<name>-<UTC time><ext>` (gzipped with `compress`) and only the newest
 * `maxbackups` of those are kept (0 keeps all), as lumberjack does.
 * @example const sink = fileSink(config.audit.file); await sink.deliver(events);
 */
export function fileSink(settings: AuditSettings['file']): AuditSink {
  const path = settings.filename;
  return {
    name: 'file',
    batch: 500,
    async deliver(events: ExportedAuditEvent[]) {
      const lines = events.map((e) => `${settings.format === 'raw' ? rawLine(e) : JSON.stringify(e)}\n`);
      const limit = settings.maxsize * MEGABYTE;
      await mkdir(dirname(path), { recursive: true });
      let size = await stat(path).then((s) => s.size, () => 0);
      let chunk = '';
      for (const line of lines) {
        const length = Buffer.byteLength(line);
        if (limit > 0 && size > 0 && size + length > limit) {
          await append(path, chunk);
          await rotate(path, settings);
          chunk = '';
          size = 0;
        }
        chunk += line;
        size += length;
      }
      await append(path, chunk);
    },
    async close() {},
  };
}

/** Appends and flushes to disk before the batch counts as delivered. */
async function append(path: string, text: string): Promise<void> {
  if (!text) return;
  const handle = await open(path, 'a', 0o600);
  try {
    await handle.write(text);
    await handle.datasync();
  } finally {
    await handle.close();
  }
}

async function rotate(path: string, settings: AuditSettings['file']): Promise<void> {
  const ext = extname(path);
  const stem = basename(path, ext);
  const stamp = new Date().toISOString().replace(/:/g, '-');
  let backup = join(dirname(path), `${stem}-${stamp}${ext}`);
  for (let n = 1; await exists(backup) || await exists(`${backup}.gz`); n++) backup = join(dirname(path), `${stem}-${stamp}-${String(n).padStart(3, '0')}${ext}`);
  await rename(path, backup);
  if (settings.compress) {
    await pipeline(createReadStream(backup), createGzip(), createWriteStream(`${backup}.gz`, { mode: 0o600 }));
    await unlink(backup);
  }
  if (settings.maxbackups <= 0) return;
  const backups = (await readdir(dirname(path))).filter((f) => f.startsWith(`${stem}-`) && (f.endsWith(ext) || f.endsWith(`${ext}.gz`))).sort();
  for (const old of backups.slice(0, Math.max(0, backups.length - settings.maxbackups))) await unlink(join(dirname(path), old));
}

function exists(path: string): Promise<boolean> {
  return stat(path).then(() => true, () => false);
}
