import { Hono } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { idParam, readJson } from '../http/validation.ts';
import { inviteInputSchema, inviteStatusSchema, inviteTokenSchema } from '../domain/invites/invite.ts';
import { answerInvite, createInvite, deleteInvite, findInvite, invitesToJson, listInvites, setInviteStatus } from '../domain/invites/invite.service.ts';
import { mailInvite } from '../alerts/invite-email.ts';
import { assertAssignableRole, roleDisplayName } from '../domain/roles/role.service.ts';
import { callerBits } from './route-context.ts';

/**
 * `/api/project/:project_id/invites` (ManageUsers): invitations by email address or user, with
 * a role and an expiry (at most 30 days). The invitation's token is answered once, on creation
 * (to pass on when no mail server is configured); the mail to an invited address carries a
 * token of its own, which proves the address (`answerInvite`).
 */
export const projectInvitesRoutes = new Hono<AppEnv>();

projectInvitesRoutes.get('/', async (c) => {
  const { db } = c.var.deps;
  return c.json(await invitesToJson(db, await listInvites(db, c.var.project.id, c.req.query('sort'), c.req.query('order'))));
});

projectInvitesRoutes.post('/', async (c) => {
  const { db, config } = c.var.deps;
  const input = await readJson(c, inviteInputSchema);
  await assertAssignableRole(db, c.var.project.id, input.role, callerBits(c));
  const created = await db.transaction().execute((tx) => createInvite(tx, c.var.project.id, input, c.var.user.id));
  const [invite] = await invitesToJson(db, [created.row]);
  const mail = { to: created.to, token: created.mailedToken, projectName: c.var.project.name, role: await roleDisplayName(db, c.var.project.id, created.row.role), inviterName: c.var.user.name || c.var.user.username, expiresAt: created.row.expires_at };
  // the invitation stands even when the mail server refuses; the token in this answer can be passed on
  const emailSent = await mailInvite(config, mail).catch((err: Error) => {
    console.warn(`[invites] invitation ${created.row.id}: the email could not be sent: ${err.message}`);
    return false;
  });
  return c.json({ ...invite, token: created.token, email_sent: emailSent }, 201);
});

projectInvitesRoutes.get('/:invite_id', async (c) => {
  const { db } = c.var.deps;
  const [invite] = await invitesToJson(db, [await findInvite(db, c.var.project.id, idParam(c, 'invite_id'))]);
  return c.json(invite);
});

projectInvitesRoutes.put('/:invite_id', async (c) => {
  const { db } = c.var.deps;
  const row = await findInvite(db, c.var.project.id, idParam(c, 'invite_id'));
  const { status } = await readJson(c, inviteStatusSchema);
  await db.transaction().execute((tx) => setInviteStatus(tx, c.var.user.id, row, status));
  return c.body(null, 204);
});

projectInvitesRoutes.delete('/:invite_id', async (c) => {
  const { db } = c.var.deps;
  const row = await findInvite(db, c.var.project.id, idParam(c, 'invite_id'));
  await db.transaction().execute((tx) => deleteInvite(tx, c.var.user.id, row));
  return c.body(null, 204);
});

/** `/api/invites/accept` and `/api/invites/decline`: the signed-in invitee answers with the token. */
export const inviteAnswerRoutes = new Hono<AppEnv>();

for (const [path, answer] of [['/accept', 'accepted'], ['/decline', 'declined']] as const) {
  inviteAnswerRoutes.post(path, async (c) => {
    const { token } = await readJson(c, inviteTokenSchema);
    await c.var.deps.db.transaction().execute((tx) => answerInvite(tx, token, c.var.user, answer));
    return c.body(null, 204);
  });
}
