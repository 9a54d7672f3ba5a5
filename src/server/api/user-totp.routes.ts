import { Hono, type Context } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { ApiError, notFound } from '../http/errors.ts';
import { idParam, readJson } from '../http/validation.ts';
import { reauthenticationSchema, requireReauthentication } from '../auth/reauthentication.ts';
import { deleteTotp, describeTotp, enrolTotp, findTotp } from '../auth/totp.ts';
import { loadTargetUser } from './users.routes.ts';
import { withAudit } from '../domain/audit/audit.writer.ts';

/**
 * `/api/users/{user_id}/2fas/totp`: two-factor enrolment, by the user or an admin. The secret
 * leaves the server only while the enrolment is new: in the create answer and as the QR image
 * until the first code has been accepted.
 */
export const userTotpRoutes = new Hono<AppEnv>();

/** Enrolling needs TOTP on in config; removing an enrolment is always allowed. */
function requireTotpEnabled(c: Context<AppEnv>): void {
  if (!c.var.deps.config.totp.enabled) throw new ApiError('forbidden', 'TOTP_DISABLED');
}

userTotpRoutes.post('/', async (c) => {
  const user = await loadTargetUser(c);
  requireTotpEnabled(c);
  const { db, secrets, config } = c.var.deps;
  if (await findTotp(db, user.id)) throw new ApiError('conflict', 'two-factor authentication is already on; delete it first');
  const enrolled = await withAudit(db, (tx) => enrolTotp(tx, user, secrets, config.totp),
    () => ({ objectType: 'user', objectId: user.id, objectName: user.username }));
  return c.json(enrolled, 201);
});

userTotpRoutes.get('/:totp_id/qr', async (c) => {
  const user = await loadTargetUser(c);
  const totpId = idParam(c, 'totp_id');
  const { db, secrets, config } = c.var.deps;
  const totp = await findTotp(db, user.id);
  if (!totp || totp.id !== totpId) throw notFound();
  requireTotpEnabled(c);
  if (totp.last_step > 0) throw notFound('the QR code is shown only until the first code is used');
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
