import { expect, vi } from 'vitest';
import type { Db } from '../../src/server/db/database.ts';
import type { Auth, TestResponse, TestServer } from './harness.ts';

/**
 * What stored secrets look like at rest: sealed key secrets, sealed variable-group passwords,
 * token hashes (API and invitation tokens) and password hashes. None of them may ever leave the server either.
 * @example const forms = await storedSecretForms(s.deps.db);
 */
export async function storedSecretForms(db: Db): Promise<string[]> {
  const keys = await db.selectFrom('access_key').select('secret').where('secret', 'is not', null).execute();
  const groups = await db.selectFrom('environment').select('password').where('password', 'is not', null).where('password', '!=', '').execute();
  const tokens = await db.selectFrom('api_token').select('hash').execute();
  const users = await db.selectFrom('user').select('password').where('password', '!=', '').execute();
  const totps = await db.selectFrom('user_totp').select(['secret', 'recovery_hash']).execute();
  const invites = await db.selectFrom('project_invite').select(['token_hash', 'email_token_hash']).execute();
  const storages = await db.selectFrom('secret_storage').select('secret').where('secret', 'is not', null).execute();
  const signing = await db.selectFrom('option').select('value').where('key', '=', 'jwt_signing_key').execute();
  const channels = await db.selectFrom('alert_channel').select('secret').where('secret', 'is not', null).execute();
  const hooks = await db.selectFrom('event_webhook').select('secret').where('secret', 'is not', null).execute();
  return [...keys.map((k) => k.secret!), ...groups.map((g) => g.password!), ...tokens.map((t) => t.hash), ...users.map((u) => u.password),
    ...totps.flatMap((t) => [t.secret, t.recovery_hash]), ...invites.flatMap((i) => [i.token_hash, i.email_token_hash ?? '']), ...storages.map((r) => r.secret!), ...signing.map((r) => r.value),
    ...channels.map((r) => r.secret!), ...hooks.map((r) => r.secret!)]
    .filter((value) => value.length >= 8);
}

/**
 * Fails naming every secret (plain, base64, or any of `stored`) found in `texts`.
 * @example expectNoSecrets(responses, [PASSWORD], await storedSecretForms(s.deps.db));
 */
export function expectNoSecrets(texts: string[], secrets: string[], stored: string[] = []): void {
  const needles = [
    ...secrets.flatMap((secret) => [[secret, secret], [`base64 of ${secret}`, Buffer.from(secret).toString('base64')]]),
    ...stored.map((value) => [`stored form ${value.slice(0, 12)}…`, value]),
  ] as [string, string][];
  const all = texts.join('\n');
  // a JSON body escapes newlines, so look for the escaped form of multi-line secrets too
  const found = needles.filter(([, needle]) => all.includes(needle) || all.includes(JSON.stringify(needle).slice(1, -1))).map(([label]) => label);
  expect(found).toEqual([]);
}

/**
 * Calls the API as one caller and keeps every response text, for an `expectNoSecrets` at the end.
 * The server and auth are read at call time, so they may be set in `beforeAll`.
 * @example const { call, responses } = recordResponses(() => s, () => admin);
 */
export function recordResponses(server: () => TestServer, auth: () => Auth): {
  call: (method: string, path: string, body?: unknown) => Promise<TestResponse>;
  responses: string[];
} {
  const responses: string[] = [];
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await server().call(method, path, body, auth());
    responses.push(res.text);
    return res;
  };
  return { call, responses };
}

/** Everything written to the console or the process streams while `run` runs. */
export async function captureLogs<T>(run: () => Promise<T>): Promise<{ result: T; lines: string[] }> {
  const lines: string[] = [];
  const keep = (...args: unknown[]) => { lines.push(args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a) ?? String(a))).join(' ')); };
  const spies = [
    ...(['log', 'info', 'warn', 'error', 'debug'] as const).map((level) => vi.spyOn(console, level).mockImplementation(keep)),
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: unknown) => { lines.push(String(chunk)); return true; }),
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: unknown) => { lines.push(String(chunk)); return true; }),
  ];
  try {
    return { result: await run(), lines };
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
}
