import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify, errors } from 'jose';
import { startEngineServer, taskLog, waitForTask, type EngineServer } from '../../support/engine.ts';
import { listenOnLoopback } from '../../support/listen.ts';
import { insertProjectWithTemplate, insertTemplate } from '../../support/fixtures.ts';
import { enqueueTask } from '../../../src/server/domain/tasks/enqueue-task.ts';
import { newEncryptionKey } from '../../../src/server/crypto/secret-box.ts';

const KEY = newEncryptionKey();

/**
 * Task identity tokens end to end: a task's SEMAPHORE_JWT is verified by an independent verifier
 * (jose's remote JWKS fetched over HTTP from the running server), claim by claim; expiry and
 * audience are enforced; a rotation by the CLI keeps the old token valid until it expires.
 */
describe('task identity tokens (JWT + JWKS)', () => {
  let e: EngineServer;
  let stop: () => Promise<void>;
  let url: string;
  let scripts: string;
  let fixture: Awaited<ReturnType<typeof insertProjectWithTemplate>>;

  const runToken = async (template: { id: number }, userId: number | null) => {
    const task = await enqueueTask(e.s.deps, { projectId: fixture.project.id, templateId: template.id, userId } as never);
    const done = await waitForTask(e.s.deps.db, task.id);
    const log = await taskLog(e.s.deps.db, task.id);
    expect(done.status, log.join('\n')).toBe('success');
    return { id: task.id, log, token: readFileSync(join(scripts, `${task.id}.jwt`), 'utf8') };
  };

  beforeAll(async () => {
    e = await startEngineServer('sqlite', { SEMAPHORE_JWT_ENABLED: 'true', SEMAPHORE_JWT_DEFAULT_TTL: '10m', SEMAPHORE_JWT_MAX_TTL: '1h', SEMAPHORE_ACCESS_KEY_ENCRYPTION: KEY });
    stop = await listenOnLoopback(e.s);
    url = e.s.config.web_host;
    scripts = join(e.s.tmp, 'scripts');
    mkdirSync(scripts);
    // the token is written where the test can read it, and printed (the log must mask it)
    writeFileSync(join(scripts, 'token.sh'), `printf '%s' "$SEMAPHORE_JWT" > "${scripts}/$SEMAPHORE_TASK_DETAILS_ID.jwt"\necho "jwt=$SEMAPHORE_JWT"\n`);
    fixture = await insertProjectWithTemplate(e.s.deps.db, { ownerId: 1, gitUrl: scripts, playbook: 'token.sh' });
  });
  afterAll(async () => {
    await stop?.();
    await e?.close();
  });

  it('publishes the keys and a discovery document outside /api', async () => {
    const discovery = await (await fetch(`${url}/.well-known/openid-configuration`)).json();
    expect(discovery).toMatchObject({ issuer: url, jwks_uri: `${url}/.well-known/jwks.json`, id_token_signing_alg_values_supported: ['ES256'] });
    const jwks = await (await fetch(`${url}/.well-known/jwks.json`)).json() as { keys: Record<string, string>[] };
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).toMatchObject({ kty: 'EC', crv: 'P-256', use: 'sig', alg: 'ES256' });
    expect(jwks.keys[0]!.d).toBeUndefined();
    // the private key is sealed in the database
    const row = await e.s.deps.db.selectFrom('option').select('value').where('key', '=', 'jwt_signing_key').executeTakeFirstOrThrow();
    expect(row.value).not.toContain('"d"');
    expect(row.value).not.toContain(jwks.keys[0]!.x);
  });

  it('gives every task of a template with JWT on a token an independent verifier accepts, claim by claim, masked in the log', async () => {
    const template = await insertTemplate(e.s.deps.db, fixture.project.id, {
      name: 'With JWT', playbook: 'token.sh', repository_id: fixture.repository.id, inventory_id: fixture.inventory.id,
      jwt_enabled: 1, jwt_audience: JSON.stringify(['https://bao.example.test', 'second-audience']), jwt_ttl: '15m',
    });
    const before = Math.floor(Date.now() / 1000);
    const { id, log, token } = await runToken(template, 1);
    expect(token.split('.')).toHaveLength(3);
    expect(log.join('\n')).toContain('jwt=********');
    expect(log.join('\n')).not.toContain(token);
    const jwks = createRemoteJWKSet(new URL(`${url}/.well-known/jwks.json`));
    const { payload, protectedHeader } = await jwtVerify(token, jwks, { issuer: url, audience: 'https://bao.example.test', algorithms: ['ES256'] });
    expect(protectedHeader.alg).toBe('ES256');
    expect(payload.sub).toBe(`task:${id}`);
    expect(payload.aud).toEqual(['https://bao.example.test', 'second-audience']);
    expect(payload.project_id).toBe(fixture.project.id);
    expect(payload.template_id).toBe(template.id);
    expect(payload.user_id).toBe(1);
    expect(payload.workflow_run_id).toBeUndefined();
    expect(payload.jti).toMatch(/^[0-9a-f-]{36}$/);
    expect(payload.iat).toBeGreaterThanOrEqual(before - 1);
    expect(payload.nbf).toBe(payload.iat);
    expect(payload.exp! - payload.iat!).toBe(15 * 60);
    // a wrong audience is refused, and so is the token once it has expired
    await expect(jwtVerify(token, jwks, { issuer: url, audience: 'someone-else' })).rejects.toBeInstanceOf(errors.JWTClaimValidationFailed);
    await expect(jwtVerify(token, jwks, { issuer: url, currentDate: new Date((payload.exp! + 1) * 1000) })).rejects.toBeInstanceOf(errors.JWTExpired);
    // a second task gets its own token
    const second = await runToken(template, 1);
    const again = await jwtVerify(second.token, jwks, { issuer: url, audience: 'second-audience' });
    expect(again.payload.jti).not.toBe(payload.jti);
  });

  it('leaves user_id out for tasks nobody started by hand, uses the default TTL, and gives no token when the template has it off', async () => {
    const template = await insertTemplate(e.s.deps.db, fixture.project.id, { name: 'Scheduled', playbook: 'token.sh', repository_id: fixture.repository.id, jwt_enabled: 1 });
    const { token } = await runToken(template, null);
    const { payload } = await jwtVerify(token, createRemoteJWKSet(new URL(`${url}/.well-known/jwks.json`)), { issuer: url });
    expect(payload.user_id).toBeUndefined();
    expect(payload.aud).toBeUndefined();
    expect(payload.exp! - payload.iat!).toBe(10 * 60);
    const off = await insertTemplate(e.s.deps.db, fixture.project.id, { name: 'Off', playbook: 'token.sh', repository_id: fixture.repository.id });
    expect((await runToken(off, 1)).token).toBe('');
  });

  it('names the workflow run in workflow_run_id when a workflow started the task', async () => {
    const template = await insertTemplate(e.s.deps.db, fixture.project.id, { name: 'Flow step', playbook: 'token.sh', repository_id: fixture.repository.id, jwt_enabled: 1 });
    const base = `/api/project/${fixture.project.id}/workflows`;
    const workflow = await e.s.call('POST', base, { name: 'Tokens', nodes: [{ id: 1, kind: 'task', name: 'step', template_id: template.id }], edges: [] }, e.admin);
    expect(workflow.status, workflow.text).toBe(201);
    const run = await e.s.call('POST', `${base}/${workflow.body.id}/run`, undefined, e.admin);
    expect(run.status, run.text).toBeLessThan(300);
    let node: { task_id: number | null } | undefined;
    for (let i = 0; i < 200 && !node?.task_id; i++) {
      node = await e.s.deps.db.selectFrom('workflow_run_node').select('task_id').where('run_id', '=', run.body.id).executeTakeFirst();
      if (!node?.task_id) await new Promise((r) => setTimeout(r, 50));
    }
    const done = await waitForTask(e.s.deps.db, node!.task_id!);
    expect(done.status).toBe('success');
    const token = readFileSync(join(scripts, `${node!.task_id}.jwt`), 'utf8');
    const { payload } = await jwtVerify(token, createRemoteJWKSet(new URL(`${url}/.well-known/jwks.json`)), { issuer: url });
    expect(payload.workflow_run_id).toBe(run.body.id);
    expect(payload.sub).toBe(`task:${node!.task_id}`);
  });

  it('rotation by the CLI: new tokens are signed with the new key, the old key stays published so earlier tokens verify until they expire', async () => {
    const template = await insertTemplate(e.s.deps.db, fixture.project.id, { name: 'Rotating', playbook: 'token.sh', repository_id: fixture.repository.id, jwt_enabled: 1 });
    const old = await runToken(template, 1);
    const oldKid = decodeProtectedHeader(old.token).kid;
    const db = e.s.config.db;
    const cli = spawnSync(process.execPath, ['src/server/cli/main.ts', 'jwt', 'rotate', '--grace', '30m'], {
      env: { PATH: process.env.PATH ?? '', SEMAPHORE_DB_DIALECT: db.dialect, SEMAPHORE_DB_HOST: db.host, SEMAPHORE_ACCESS_KEY_ENCRYPTION: KEY }, encoding: 'utf8', timeout: 60_000,
    });
    expect(cli.status, cli.stderr).toBe(0);
    expect(cli.stdout).toContain(`key ${oldKid} no longer signs; published until`);
    const fresh = await runToken(template, 1);
    const newKid = decodeProtectedHeader(fresh.token).kid;
    expect(newKid).not.toBe(oldKid);
    const jwks = await (await fetch(`${url}/.well-known/jwks.json`)).json() as { keys: { kid: string }[] };
    expect(jwks.keys.map((k) => k.kid).sort()).toEqual([oldKid, newKid].sort());
    const verifier = createRemoteJWKSet(new URL(`${url}/.well-known/jwks.json`));
    await expect(jwtVerify(old.token, verifier, { issuer: url })).resolves.toBeTruthy();
    await expect(jwtVerify(fresh.token, verifier, { issuer: url })).resolves.toBeTruthy();
    // once the grace period is over the old key is no longer published
    const { publishedKeys } = await import('../../../src/server/identity/signing-keys.ts');
    const later = await publishedKeys(e.s.deps.db, e.s.deps.secrets, new Date(Date.now() + 31 * 60_000));
    expect(later.map((k) => k.kid)).toEqual([newKid]);
  });

  it('template settings: audiences at most 32, TTL within jwt.max_ttl', async () => {
    const base = `/api/project/${fixture.project.id}/templates`;
    const body = { project_id: fixture.project.id, name: 'Form JWT', app: 'bash', playbook: 'token.sh', repository_id: fixture.repository.id, inventory_id: fixture.inventory.id, environment_id: fixture.environment.id };
    const created = await e.s.call('POST', base, { ...body, jwt_enabled: true, jwt_audience: ['a', 'b'], jwt_ttl: '30m' }, e.admin);
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ jwt_enabled: true, jwt_audience: ['a', 'b'], jwt_ttl: '30m' });
    const tooMany = await e.s.call('POST', base, { ...body, name: 'Many', jwt_audience: Array.from({ length: 33 }, (_, i) => `a${i}`) }, e.admin);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error).toContain('jwt_audience');
    const tooLong = await e.s.call('POST', base, { ...body, name: 'Long', jwt_ttl: '2h' }, e.admin);
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error).toContain('jwt.max_ttl');
    const bad = await e.s.call('POST', base, { ...body, name: 'Bad', jwt_ttl: 'soon' }, e.admin);
    expect(bad.status).toBe(400);
  });
});

describe('JWT issuance off', () => {
  it('answers 404 for the JWKS and discovery document and mints nothing', async () => {
    const e = await startEngineServer('sqlite');
    const stop = await listenOnLoopback(e.s);
    try {
      for (const path of ['/.well-known/jwks.json', '/.well-known/openid-configuration']) expect((await fetch(e.s.config.web_host + path)).status).toBe(404);
      const row = await e.s.deps.db.selectFrom('option').select('key').where('key', '=', 'jwt_signing_key').executeTakeFirst();
      expect(row).toBeUndefined();
    } finally {
      await stop();
      await e.close();
    }
  });
});
