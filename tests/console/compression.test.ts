import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, type IncomingHttpHeaders } from 'node:http';
import { readdirSync, readFileSync } from 'node:fs';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { startConsoleServer, type ConsoleServer } from './support/console-server.ts';
import { adminApi, insertFinishedTask, insertScriptProject } from './support/real-tasks.ts';

interface RawResponse { status: number; headers: IncomingHttpHeaders; body: Buffer }

let server: ConsoleServer;
let cookie = '';
let fx: Awaited<ReturnType<typeof insertScriptProject>>;
let taskId = 0;
const ASSETS = new URL('../../dist/client/_astro/', import.meta.url);

beforeAll(async () => {
  server = await startConsoleServer();
  cookie = (await adminApi(server)).cookie;
  fx = await insertScriptProject(server, { 'run.sh': 'echo hi\n' }, 'run.sh');
  taskId = await insertFinishedTask(server, fx, 300, (n) => `TASK [step ${n}] ok: [localhost] => changed=false`);
});

afterAll(async () => { await server?.close(); });

/** GET with the body exactly as it crossed the wire (no decoding). */
function rawGet(path: string, headers: Record<string, string>): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    request(server.url + path, { headers: { cookie, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    }).on('error', reject).end();
  });
}

function decode(res: RawResponse): string {
  const encoding = res.headers['content-encoding'];
  const bytes = encoding === 'br' ? brotliDecompressSync(res.body) : encoding === 'gzip' ? gunzipSync(res.body) : res.body;
  return bytes.toString('utf8');
}

const asset = (ext: string) => `/_astro/${readdirSync(ASSETS).find((f) => f.endsWith(ext))!}`;

describe('compressed responses', () => {
  const kinds: [string, () => string, RegExp][] = [
    ['an HTML page', () => `/project/${fx.project.id}/history`, /^text\/html/],
    ['API JSON', () => `/api/project/${fx.project.id}/tasks/${taskId}/output`, /^application\/json/],
    ['a raw log', () => `/api/project/${fx.project.id}/tasks/${taskId}/raw_output`, /^text\/plain/],
    ['JavaScript', () => asset('.js'), /^text\/javascript/],
    ['CSS', () => asset('.css'), /^text\/css/],
  ];
  for (const [kind, path, type] of kinds) {
    it(`sends ${kind} as brotli, as gzip, or plain as the client asks, the same text each way`, async () => {
      const plain = await rawGet(path(), {});
      expect(plain.status).toBe(200);
      expect(plain.headers['content-type']).toMatch(type);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.headers.vary).toMatch(/accept-encoding/i);
      expect(plain.body.length).toBeGreaterThan(1024);
      const br = await rawGet(path(), { 'accept-encoding': 'gzip, deflate, br' });
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers.vary).toMatch(/accept-encoding/i);
      expect(br.body.length).toBeLessThan(plain.body.length / 2);
      const gzip = await rawGet(path(), { 'accept-encoding': 'gzip' });
      expect(gzip.headers['content-encoding']).toBe('gzip');
      // Pages carry per-request tokens and times; the rest is byte-identical.
      if (kind === 'an HTML page') {
        expect(decode(br)).toContain('<title>');
        expect(decode(gzip)).toContain('<title>');
      } else {
        expect(decode(br)).toBe(plain.body.toString('utf8'));
        expect(decode(gzip)).toBe(plain.body.toString('utf8'));
      }
    });
  }

  it('serves the build-time .br/.gz twin of a hashed asset with its exact length and immutable caching', async () => {
    const js = asset('.js');
    const res = await rawGet(js, { 'accept-encoding': 'br' });
    expect(res.body.equals(readFileSync(new URL(`${js.slice('/_astro/'.length)}.br`, ASSETS)))).toBe(true);
    expect(Number(res.headers['content-length'])).toBe(res.body.length);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const refused = await rawGet(js, { 'accept-encoding': 'br;q=0, gzip' });
    expect(refused.headers['content-encoding']).toBe('gzip');
  });

  it('leaves small answers alone', async () => {
    const res = await rawGet(`/api/project/${fx.project.id}/tasks/${taskId}/output?offset=0&limit=1`, { 'accept-encoding': 'br, gzip' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(res.body.toString())).toHaveLength(1);
    expect(res.headers.vary).toMatch(/accept-encoding/i);
  });

  it('streams a long raw log compressed: the first bytes arrive before the whole log has been read', async () => {
    const lines = 300_000;
    const longTask = await insertFinishedTask(server, fx, lines, (n) => `output line ${n} of a long task`);
    const text = await new Promise<string>((resolve, reject) => {
      request(`${server.url}/api/project/${fx.project.id}/tasks/${longTask}/raw_output`, { headers: { cookie, 'accept-encoding': 'br' } }, (res) => {
        expect(res.headers['content-encoding']).toBe('br');
        expect(res.headers['content-length']).toBeUndefined();
        const chunks: Buffer[] = [];
        res.once('data', () => {
          // A line written now lands in the answer only if the server was still reading the log.
          void server.deps.db.insertInto('task_output').values({ task_id: longTask, time: new Date().toISOString(), output: 'written after the first bytes' }).execute();
        });
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve(brotliDecompressSync(Buffer.concat(chunks)).toString('utf8')));
      }).on('error', reject).end();
    });
    const received = text.trimEnd().split('\n');
    expect(received[0]).toBe('output line 1 of a long task');
    expect(received[lines - 1]).toBe(`output line ${lines} of a long task`);
    expect(received.at(-1)).toBe('written after the first bytes');
  }, 120_000);
});
