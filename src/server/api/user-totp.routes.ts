import { Hono, type Context } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../http/context.ts';
import { ApiError, notFound } from '../http/errors.ts';
import { idParam, readJson } from '../http/validation.ts';
import { reauthenticationSchema, requireReauthentication, requireThrottledProof } from '../auth/reauthentication.ts';
import { acceptPasscode, deleteTotp, describeTotp, enrolTotp, findTotp, isConfirmed } from '../auth/totp.ts';
import { loadTargetUser } from './users.routes.ts';
import { withAudit, writeAudit } from '../domain/audit/audit.writer.ts';

/**
 * `/api/users/{user_id}/2fas/totp`: two-factor enrolment, by the user or an admin. Users prove
 * who they are to enrol (a stolen API token cannot turn two-factor on and lock them out), and
 * an enrolment stays pending, asked at no sign-in, until a code from it is confirmed. The secret
 * leaves the server only while the enrolment is pending: in the create answer and as the QR image.
 */
export const userTotpRoutes = new Hono<AppEnv>();

/** Body of `POST …/2fas/totp/{id}/confirm`: a code from the authenticator app. */
export const totpConfirmSchema = z.strictObject({ passcode: z.string().min(1, 'required').max(64, 'at most 64 characters') });

/** Enrolling needs TOTP on in config; removing an enrolment is always allowed. */
function requireTotpEnabled(c: Context<AppEnv>): void {
  if (!c.var.deps.config.totp.enabled) throw new ApiError('forbidden', 'TOTP_DISABLED');
}

/** The user's enrolment of id `totpId` (read from the path before anything else, so a malformed id is a 400), or 404. */
async function pathTotp(c: Context<AppEnv>, userId: number, totpId: number) {
  const totp = await findTotp(c.var.deps.db, userId);
  if (!totp || totp.id !== totpId) throw notFound();
  return totp;
}

userTotpRoutes.post('/', async (c) => {
  const user = await loadTargetUser(c);
  const proof = await readJson(c, reauthenticationSchema);
  requireTotpEnabled(c);
  await requireReauthentication(c, user, proof);
  const { db, secrets, config } = c.var.deps;
  const existing = await findTotp(db, user.id);
  if (existing && isConfirmed(existing)) throw new ApiError('conflict', 'two-factor authentication is already on; delete it first');
  const enrolled = await withAudit(db, (tx) => enrolTotp(tx, user, secrets, config.totp),
    () => ({ objectType: 'user', objectId: user.id, objectName: user.username, description: 'two-factor enrolment started' }));
  return c.json(enrolled, 201);
});

userTotpRoutes.post('/:totp_id/confirm', async (c) => {
  const user = await loadTargetUser(c);
  const totpId = idParam(c, 'totp_id');
  requireTotpEnabled(c);
  const { passcode } = await readJson(c, totpConfirmSchema);
  const totp = await pathTotp(c, user.id, totpId);
  if (isConfirmed(totp)) throw new ApiError('conflict', 'two-factor authentication is already confirmed');
  const { db, secrets, config } = c.var.deps;
  await requireThrottledProof(c, `totp#${user.id}`, () => acceptPasscode(db, totp, user, passcode.trim(), secrets, config.totp), 'passcode: incorrect code');
  await writeAudit(db, { objectType: 'user', objectId: user.id, objectName: user.username, description: 'two-factor enrolment confirmed' });
  return c.body(null, 204);
});

userTotpRoutes.get('/:totp_id/qr', async (c) => {
  const user = await loadTargetUser(c);
  const totp = await pathTotp(c, user.id, idParam(c, 'totp_id'));
  const { secrets, config } = c.var.deps;
  requireTotpEnabled(c);
  if (isConfirmed(totp)) throw notFound('the QR code is shown only until the first code is used');
  const { default: QRCode } = await import('qrcode'); // loaded on first use, like every optional package
  const png = await QRCode.toBuffer(describeTotp(totp, user, secrets, config.totp).url, { type: 'png', margin: 2, width: 240 });
  return c.body(new Uint8Array(png), 200, { 'content-type': 'image/png', 'cache-control': 'no-store' });
});

userTotpRoutes.delete('/:totp_id', async (c) => {
  const user = await loadTargetUser(c);
  await requireReauthentication(c, user, await readJson(c, reauthenticationSchema));
  const deleted = await withAudit(c.var.deps.db, (tx) => deleteTotp(tx, user.id, idParam(c, 'totp_id')),
    (done) => (done ? { objectType: 'user', objectId: user.id, objectName: user.username } : null));
  if (!deleted) throw notFound();
  return c.body(null, 204);
});
