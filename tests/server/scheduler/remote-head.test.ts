import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../support/harness.ts';
import { readRemoteHead } from '../../../src/server/domain/repositories/remote-head.ts';

const HEAD = 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678';
const pkt = (line: string) => (line.length + 4).toString(16).padStart(4, '0') + line;

/** A smart-HTTP git remote that only answers the ref advertisement, behind HTTP Basic auth. */
function startGitHttpRemote(login: string, password: string) {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    seen.push(req.headers.authorization ?? '');
    if (req.headers.authorization !== `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`) {
      res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="git"' }).end();
      return;
    }
    res.writeHead(200, { 'Content-Type': 'application/x-git-upload-pack-advertisement', 'Cache-Control': 'no-cache' });
    res.end(`${pkt('# service=git-upload-pack\n')}0000${pkt(`${HEAD} refs/heads/main\0report-status\n`)}0000`);
  });
  return { server, seen };
}

describe('reading a remote branch head with the repository key', () => {
  let test: TestServer;
  let remote: { server: Server; seen: string[] };
  let url: string;
  beforeAll(async () => {
    test = await startTestServer('sqlite');
    remote = startGitHttpRemote('deploy', 'p@ss:word/1');
    await new Promise<void>((resolve) => remote.server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(remote.server.address() as AddressInfo).port}/acme/app.git`;
  });
  afterAll(async () => { remote.server.close(); await test.close(); });

  async function keyWith(password: string) {
    const key = await test.deps.db.insertInto('access_key').values({
      project_id: (await test.deps.db.insertInto('project').values({ name: 'p', created: '', alert: 0, alert_chat: null, max_parallel_tasks: 0, type: '' }).returning('id').executeTakeFirstOrThrow()).id,
      name: 'git login', type: 'login_password', secret: test.deps.secrets.seal(JSON.stringify({ login: 'deploy', password })),
      owner: '', environment_id: null, created: '',
    }).returning('id').executeTakeFirstOrThrow();
    return key.id;
  }

  it('sends a login_password key as HTTP credentials', async () => {
    const head = await readRemoteHead(test.deps, { git_url: url, git_branch: 'main', ssh_key_id: await keyWith('p@ss:word/1') });
    expect(head).toBe(HEAD);
    expect(remote.seen).toContain(`Basic ${Buffer.from('deploy:p@ss:word/1').toString('base64')}`);
  });

  it('fails without putting the password in the error', async () => {
    const error = await readRemoteHead(test.deps, { git_url: url, git_branch: 'main', ssh_key_id: await keyWith('wrong-secret-9') }).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toContain(`git ls-remote ${url} failed`);
    expect((error as Error).message).not.toContain('wrong-secret-9');
  });

  it('reports a branch the remote does not have', async () => {
    const error = await readRemoteHead(test.deps, { git_url: url, git_branch: 'release', ssh_key_id: await keyWith('p@ss:word/1') }).catch((e: Error) => e);
    expect((error as Error).message).toBe(`branch release not found in ${url}`);
  });
});

describe('reading a remote branch head over ssh with the repository key', () => {
  it('hands ssh a 0600 copy of the private key and removes it afterwards', async () => {
    const test = await startTestServer('sqlite');
    const originalPath = process.env.PATH;
    try {
      const bin = join(test.tmp, 'bin');
      const log = join(test.tmp, 'ssh.log');
      const remote = join(test.tmp, 'remote.git');
      mkdirSync(bin);
      execFileSync('git', ['init', '-q', '--bare', '-b', 'main', remote]);
      const work = join(test.tmp, 'work');
      execFileSync('git', ['clone', '-q', remote, work], { stdio: 'ignore' });
      writeFileSync(join(work, 'f'), 'x');
      const gitEnv = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@e', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@e' };
      execFileSync('git', ['-C', work, 'add', 'f']);
      execFileSync('git', ['-C', work, 'commit', '-q', '-m', 'f'], { env: gitEnv });
      execFileSync('git', ['-C', work, 'push', '-q', 'origin', 'HEAD:main']);
      const head = execFileSync('git', ['-C', work, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
      // A stand-in for ssh: notes the key file it was given, then runs the remote command locally.
      writeFileSync(join(bin, 'ssh'), `#!/bin/sh
key=""; prev=""
for a in "$@"; do [ "$prev" = "-i" ] && key="$a"; prev="$a"; last="$a"; done
{ echo "key=$key"; stat -c %a "$key"; cat "$key"; } > '${log}'
exec sh -c "$last"
`);
      chmodSync(join(bin, 'ssh'), 0o755);
      process.env.PATH = `${bin}:${originalPath}`;

      const project = await test.deps.db.insertInto('project').values({ name: 'p', created: '', alert: 0, alert_chat: null, max_parallel_tasks: 0, type: '' }).returning('id').executeTakeFirstOrThrow();
      const key = await test.deps.db.insertInto('access_key').values({
        project_id: project.id, name: 'deploy key', type: 'ssh', owner: '', environment_id: null, created: '',
        secret: test.deps.secrets.seal(JSON.stringify({ login: 'git', passphrase: '', private_key: 'PRIVATE-KEY-MATERIAL' })),
      }).returning('id').executeTakeFirstOrThrow();

      const found = await readRemoteHead(test.deps, { git_url: `ssh://git@localhost${remote}`, git_branch: 'main', ssh_key_id: key.id });
      expect(found).toBe(head);
      const [keyLine, mode, material] = readFileSync(log, 'utf8').split('\n');
      expect(mode).toBe('600');
      expect(material).toBe('PRIVATE-KEY-MATERIAL');
      expect(existsSync(keyLine!.slice('key='.length))).toBe(false);
    } finally {
      process.env.PATH = originalPath;
      await test.close();
    }
  });
});
