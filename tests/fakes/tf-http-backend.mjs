// The `backend "http"` half of the fake terraform/tofu CLI: what terraform does with the state
// around `plan` and `apply` (terraform's internal/backend/remote-state/http client):
// LOCK with lock info JSON, GET the state (200, or 204/404 = none), for apply POST the new
// state with `?ID=<lock id>` and Content-MD5, then UNLOCK with the same lock info. Addresses,
// methods and basic auth come from TF_HTTP_*. A held lock (409/423) prints terraform's error.
// Usage: node tf-http-backend.mjs plan|apply   (FAKE_TF_HOLD_FILE: apply waits for that file
// to exist while holding the lock, so a test can run a second apply against the held lock).
import { request } from 'node:http';
import { createHash, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { hostname, userInfo } from 'node:os';

const operation = process.argv[2];
const env = process.env;
const address = env.TF_HTTP_ADDRESS;
if (!address) fail('Error: "address": required field is not set');
const lockAddress = env.TF_HTTP_LOCK_ADDRESS ?? '';
const unlockAddress = env.TF_HTTP_UNLOCK_ADDRESS ?? '';
const auth = env.TF_HTTP_USERNAME ? `Basic ${Buffer.from(`${env.TF_HTTP_USERNAME}:${env.TF_HTTP_PASSWORD ?? ''}`).toString('base64')}` : undefined;

function call(method, url, body) {
  return new Promise((resolve, reject) => {
    const headers = { ...(auth ? { authorization: auth } : {}) };
    if (body !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-md5'] = createHash('md5').update(body).digest('base64');
      headers['content-length'] = Buffer.byteLength(body);
    }
    const req = request(url, { method, headers }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

function fail(message) {
  console.error(message);
  process.exit(1);
}

function authError(status, what) {
  if (status === 401) fail(`Error: ${what}: HTTP remote state endpoint requires auth`);
  if (status === 403) fail(`Error: ${what}: HTTP remote state endpoint invalid auth`);
}

const info = {
  ID: randomUUID(), Operation: operation === 'apply' ? 'OperationTypeApply' : 'OperationTypePlan', Info: '',
  Who: `${userInfo().username}@${hostname()}`, Version: '1.9.0', Created: new Date().toISOString(), Path: '',
};
const infoJson = JSON.stringify(info);

if (lockAddress) {
  const res = await call(env.TF_HTTP_LOCK_METHOD || 'LOCK', lockAddress, infoJson);
  authError(res.status, 'Error acquiring the state lock');
  if (res.status === 409 || res.status === 423) {
    let holder = {};
    try { holder = JSON.parse(res.body); } catch { /* shown empty */ }
    fail([
      'Error: Error acquiring the state lock', '',
      `Error message: HTTP remote state already locked: ID=${holder.ID ?? ''}`,
      'Lock Info:', `  ID:        ${holder.ID ?? ''}`, `  Path:      ${holder.Path ?? ''}`, `  Operation: ${holder.Operation ?? ''}`,
      `  Who:       ${holder.Who ?? ''}`, `  Version:   ${holder.Version ?? ''}`, `  Created:   ${holder.Created ?? ''}`, '',
      'Terraform acquires a state lock to protect the state from being written',
      'by multiple users at the same time. Please resolve the issue above and try',
      'again. For most commands, you can disable locking with the "-lock=false"',
      'flag, but this is not recommended.',
    ].join('\n'));
  }
  if (res.status !== 200) fail(`Error: Error acquiring the state lock: Unexpected HTTP response code ${res.status}`);
  console.log('Acquiring state lock. This may take a few moments...');
}

const got = await call('GET', address);
authError(got.status, 'Failed to load state');
if (![200, 204, 404].includes(got.status)) fail(`Error: Failed to load state: Unexpected HTTP response code ${got.status}`);
const previous = got.status === 200 && got.body ? JSON.parse(got.body) : null;
console.log(previous ? `Refreshing state... (serial ${previous.serial})` : 'No existing state.');

if (operation === 'apply') {
  if (env.FAKE_TF_HOLD_FILE) {
    const until = Date.now() + 60_000;
    while (!existsSync(env.FAKE_TF_HOLD_FILE) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
  }
  const state = {
    version: 4, terraform_version: '1.9.0', serial: (previous?.serial ?? 0) + 1, lineage: previous?.lineage ?? randomUUID(), outputs: {},
    resources: [{ mode: 'managed', type: 'null_resource', name: 'x', provider: 'provider["registry.terraform.io/hashicorp/null"]', instances: [{ schema_version: 0, attributes: { id: String(Date.now()) } }] }],
  };
  const url = new URL(address);
  if (lockAddress) url.searchParams.set('ID', info.ID);
  const saved = await call('POST', url.toString(), JSON.stringify(state));
  authError(saved.status, 'Failed to save state');
  if (![200, 201, 204].includes(saved.status)) fail(`Error: Failed to save state: HTTP error: ${saved.status}`);
  console.log(`Saved state serial ${state.serial}.`);
}

if (unlockAddress) {
  const res = await call(env.TF_HTTP_UNLOCK_METHOD || 'UNLOCK', unlockAddress, infoJson);
  if (res.status !== 200) fail(`Error: Error releasing the state lock: Unexpected HTTP response code ${res.status}`);
  console.log('Releasing state lock. This may take a few moments...');
}
