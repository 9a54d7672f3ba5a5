import { createReadStream, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

export interface FakeRegistry {
  /** host:port on loopback, as an image reference starts */
  host: string;
  /** every request: its path and the login it carried ('' without one) */
  requests: { method: string; path: string; login: string }[];
  stop: () => Promise<void>;
}

/**
 * A container registry on loopback serving one image from an OCI layout folder (`podman save
 * --format oci-dir`) under any name and tag, the way a pull reads a registry (the distribution
 * API's GETs, plain HTTP), behind Basic authentication with one login. It answers pulls only.
 * @example const registry = await startFakeRegistry(ociDir, { login: 'robot', password: 'pw' });
 */
export async function startFakeRegistry(layout: string, account: { login: string; password: string }): Promise<FakeRegistry> {
  const index = JSON.parse(readFileSync(join(layout, 'index.json'), 'utf8')) as { manifests: { digest: string; mediaType: string }[] };
  const manifest = index.manifests[0]!;
  const blob = (digest: string) => join(layout, 'blobs', ...digest.split(':'));
  const expected = `Basic ${Buffer.from(`${account.login}:${account.password}`).toString('base64')}`;
  const requests: FakeRegistry['requests'] = [];
  const server = createServer((req, res) => {
    const auth = req.headers.authorization ?? '';
    const login = auth.startsWith('Basic ') ? Buffer.from(auth.slice(6), 'base64').toString().split(':')[0]! : '';
    const path = new URL(req.url ?? '/', 'http://registry').pathname;
    requests.push({ method: req.method ?? '', path, login });
    res.setHeader('Docker-Distribution-API-Version', 'registry/2.0');
    if (auth !== expected) {
      res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="signalbox-test"', 'content-type': 'application/json' });
      return res.end('{"errors":[{"code":"UNAUTHORIZED"}]}');
    }
    if (path === '/v2/') return res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    const asked = /^\/v2\/.+\/(manifests|blobs)\/([^/]+)$/.exec(path);
    const digest = asked?.[1] === 'manifests' ? manifest.digest : asked?.[2];
    if (!asked || !digest) return res.writeHead(404).end();
    let size: number;
    try {
      size = statSync(blob(digest)).size;
    } catch {
      return res.writeHead(404).end();
    }
    const type = asked[1] === 'manifests' ? manifest.mediaType : 'application/octet-stream';
    res.writeHead(200, { 'content-type': type, 'content-length': size, 'Docker-Content-Digest': digest });
    if (req.method === 'HEAD') return res.end();
    createReadStream(blob(digest)).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    host: `127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    stop: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
