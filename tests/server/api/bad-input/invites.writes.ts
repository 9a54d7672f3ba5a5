import { createHash } from 'node:crypto';
import type { Db } from '../../../../src/server/db/database.ts';
import { now } from '../../../../src/server/lib/time.ts';
import type { BadInputContext, WriteRoute } from '../../../support/bad-input.ts';
import { insertProject } from '../../../support/fixtures.ts';

const p = ({ w }: BadInputContext) => `/api/project/${w.projectId}`;
let invited = 0;
/** The tokens of the admin's two invitations (`prepareInvites`), known so the bodies can name them. */
const TOKENS = { accept: 'bad-input-accept-token', decline: 'bad-input-decline-token' };

/** Two pending invitations of the world's admin to another project, one to accept and one to decline. */
export async function prepareInvites(db: Db, x: BadInputContext): Promise<Record<string, number>> {
  const project = await insertProject(db, `Invited ${x.w.projectId}`);
  for (const token of Object.values(TOKENS)) {
    await db.insertInto('project_invite').values({
      project_id: project.id, user_id: x.w.users.admin.id, email: null, role: 'guest', status: 'pending',
      token_hash: createHash('sha256').update(token).digest('hex'), inviter_user_id: x.w.users.admin.id, created: now(), expires_at: null, accepted_at: null,
    }).execute();
  }
  return { invitedProject: project.id };
}

/** Every POST/PUT with a body of per-user options and project invitations. */
export const INVITE_WRITES: WriteRoute[] = [
  {
    route: 'POST /api/user/options', path: () => '/api/user/options',
    valid: () => ({ key: 'ui.theme', value: 'dark' }), fields: { key: 'string', value: 'string' }, maxLength: { key: 100, value: 4096 },
  },
  {
    // each valid body invites another address: a second invitation of the same one is a 409
    route: 'POST /api/project/{id}/invites', path: (x) => `${p(x)}/invites`,
    valid: () => ({ email: `bad-input-${++invited}@example.test`, role: 'guest' }),
    fields: { email: 'string', user_id: 'number', role: 'string', expires_at: 'string' },
  },
  {
    route: 'PUT /api/project/{id}/invites/{i}', path: (x) => `${p(x)}/invites/${x.ids.invite}`,
    valid: () => ({ status: 'declined' }), fields: { status: 'string' },
  },
  { route: 'POST /api/invites/accept', path: () => '/api/invites/accept', valid: () => ({ token: TOKENS.accept }), fields: { token: 'string' }, maxLength: { token: 200 } },
  { route: 'POST /api/invites/decline', path: () => '/api/invites/decline', valid: () => ({ token: TOKENS.decline }), fields: { token: 'string' }, maxLength: { token: 200 } },
];
