import type { AstroGlobal } from 'astro';
import { inviteInputSchema } from '../server/domain/invites/invite.ts';
import { inviteLink } from '../server/alerts/invite-email.ts';
import { apiGetOr } from './runner-api.ts';
import { runForm, textField, type FormOutcome } from './form-loop.ts';

type AstroLike = Pick<AstroGlobal, 'locals' | 'request' | 'redirect' | 'response' | 'url'>;

/** An invitation as the team page lists it. */
export interface TeamInvite { id: number; email?: string; user?: { name: string }; role: string; status: string; expires_at?: string }
/** The answer to a new invitation: its one-time token, and whether it was mailed. */
interface CreatedInvite extends TeamInvite { token: string; email_sent: boolean }

export interface TeamInvites {
  redirect?: Response;
  invites: TeamInvite[];
  /** `?invite=1`: the invite dialog is open */
  inviting: boolean;
  form: FormOutcome<{ email: string; role: string }> | null;
  /** the invitation just sent: to whom, and its link when no mail server took it */
  sent: { email: string; link: string | null } | null;
}

/**
 * The team page's invitations (for those who manage the team): the list, and the invite-by-email
 * dialog through the shared form loop. When mail is not set up, the answer's one-time link is
 * shown once so the inviter can pass it on.
 */
export async function runTeamInvites(astro: AstroLike, opts: { projectId: number; canManage: boolean; t: (key: string) => string }): Promise<TeamInvites> {
  if (!opts.canManage) return { invites: [], inviting: false, form: null, sent: null };
  const path = `/api/project/${opts.projectId}/invites`;
  const inviting = astro.url.searchParams.get('invite') === '1';
  const form = inviting ? await runForm(astro, {
    name: 'invite', initial: { email: '', role: 'task_runner' },
    read: (f) => ({ email: textField(f, 'email'), role: textField(f, 'role') }),
    toBody: (v) => ({ email: v.email, role: v.role }),
    schema: inviteInputSchema,
    messages: { email: opts.t('invites.emailInvalid'), role: opts.t('resources.role_required') },
    call: () => ({ method: 'POST', path }),
    show: async (res) => (await res.json()) as CreatedInvite,
    done: () => ({ path: astro.url.pathname }),
  }) : null;
  if (form?.redirect) return { redirect: form.redirect, invites: [], inviting, form, sent: null };
  const created = (form?.shown as CreatedInvite | undefined) ?? null;
  const invites = await apiGetOr<TeamInvite[]>(astro, path, []);
  const sent = created ? { email: created.email ?? '', link: created.email_sent ? null : inviteLink(astro.locals.webRoot, created.token) } : null;
  return { invites, inviting: inviting && !created, form, sent };
}
