import QRCode from 'qrcode';
import type { AstroGlobal } from 'astro';
import { apiSend, readErrorText } from './runner-api.ts';
import { flashPath } from './flash.ts';

type AstroLike = Pick<AstroGlobal, 'locals' | 'request'>;

/** A user as the edit screen reads it, with the two-factor enrolment when there is one. */
export interface EditedUser {
  id: number; name: string; username: string; email: string; admin: boolean; external: boolean; alert: boolean; can_create_project: boolean;
  /** `pending` until a code from the authenticator app confirmed the enrolment */
  totp?: { id: number; created: string; pending?: boolean };
}

/** A sign-in of another provider linked to the user (`GET /api/users/{id}/identities`). */
export interface LinkedIdentity { id: number; type: 'ldap' | 'oidc'; provider: string; external_uid: string; created: string }

/** What a fresh enrolment shows once: the QR image, the secret for typing in, the recovery code. */
export interface Enrolment { id: number; qr: string; secret: string; recoveryCode: string }

/** The outcome of one posted form: a redirect with a flash, an error to show, or an enrolment to show. */
export type AccountOutcome = { redirect: string } | { error: string; tab: 'settings' | 'security' } | { enrolment: Enrolment };

type Form = (name: string) => string;

/**
 * Runs the form posted to `/users/{id}/edit`: `save` (settings), `delete`, `password`,
 * `totp_on` (starts an enrolment, with the current password), `totp_confirm` (its first code
 * turns it on), `totp_off`, `revoke` (a session), `unlink_identity`, `link_ldap` (one's own directory account). Each goes through the runner API as the signed-in user.
 */
export async function runAccountAction(astro: AstroLike, user: EditedUser, form: FormData, t: (key: string, o?: Record<string, unknown>) => string, self: boolean): Promise<AccountOutcome> {
  const field: Form = (name) => String(form.get(name) ?? '').trim();
  const page = `/users/${user.id}/edit`;
  switch (field('action')) {
    case 'save': return saveSettings(astro, user, field, page, t, self);
    case 'password': {
      const password = String(form.get('password') ?? '');
      if (!password) return { error: t('account.passwordRequired'), tab: 'security' };
      if (password !== String(form.get('password_confirm') ?? '')) return { error: t('account.passwordsDiffer'), tab: 'security' };
      const proof = self ? reauthentication(form) : {};
      if (!proof) return { error: t('account.currentPasswordRequired'), tab: 'security' };
      const res = await apiSend(astro, 'POST', `/api/users/${user.id}/password`, { password, ...proof });
      return res.ok ? { redirect: flashPath(`${page}?tab=security`, 'password_changed') } : { error: await securityErrorText(res, t), tab: 'security' };
    }
    case 'totp_on': {
      const proof = self ? reauthentication(form) : {};
      if (!proof) return { error: t('account.currentPasswordRequired'), tab: 'security' };
      const res = await apiSend(astro, 'POST', `/api/users/${user.id}/2fas/totp`, proof);
      if (!res.ok) return { error: await securityErrorText(res, t), tab: 'security' };
      const created = (await res.json()) as { id: number; url: string; recovery_code: string };
      return { enrolment: { id: created.id, qr: await QRCode.toDataURL(created.url, { margin: 2, width: 200 }), secret: new URL(created.url).searchParams.get('secret') ?? '', recoveryCode: created.recovery_code } };
    }
    case 'totp_confirm': {
      const passcode = field('passcode');
      if (!passcode) return { error: t('login.codeRequired'), tab: 'security' };
      const res = await apiSend(astro, 'POST', `/api/users/${user.id}/2fas/totp/${encodeURIComponent(field('totp'))}/confirm`, { passcode });
      if (res.ok) return { redirect: flashPath(`${page}?tab=security`, 'totp_enabled') };
      const text = await readErrorText(res);
      return { error: text.startsWith('passcode: incorrect') ? t('login.incorrectCode') : text, tab: 'security' };
    }
    case 'totp_off': {
      if (!user.totp) return { redirect: `${page}?tab=security` };
      const proof = self ? reauthentication(form) : {};
      if (!proof) return { error: t('account.currentPasswordRequired'), tab: 'security' };
      const res = await apiSend(astro, 'DELETE', `/api/users/${user.id}/2fas/totp/${user.totp.id}`, proof);
      return res.ok ? { redirect: flashPath(`${page}?tab=security`, 'totp_disabled') } : { error: await securityErrorText(res, t), tab: 'security' };
    }
    case 'delete': {
      const res = await apiSend(astro, 'DELETE', `/api/users/${user.id}`);
      return res.ok ? { redirect: flashPath(self ? '/auth/login' : '/users', 'user_deleted', user.name) } : { error: await readErrorText(res), tab: 'settings' };
    }
    case 'revoke': {
      const res = await apiSend(astro, 'DELETE', `/api/user/sessions/${encodeURIComponent(field('session'))}`);
      return res.ok ? { redirect: flashPath(`${page}?tab=security`, 'session_revoked') } : { error: await readErrorText(res), tab: 'security' };
    }
    case 'unlink_identity': {
      const res = await apiSend(astro, 'DELETE', `/api/users/${user.id}/identities/${encodeURIComponent(field('type'))}/${encodeURIComponent(field('provider'))}`);
      return res.ok ? { redirect: flashPath(`${page}?tab=security`, 'identity_unlinked') } : { error: await readErrorText(res), tab: 'security' };
    }
    case 'link_ldap': {
      const body = { username: field('ldap_username'), password: String(form.get('ldap_password') ?? '') };
      if (!body.username) return { error: t('login.usernameRequired'), tab: 'security' };
      if (!body.password) return { error: t('login.passwordRequired'), tab: 'security' };
      const res = await apiSend(astro, 'POST', '/api/user/identities/ldap', body);
      if (res.status === 401) return { error: t('login.incorrect'), tab: 'security' };
      return res.ok ? { redirect: flashPath(`${page}?tab=security`, 'identity_linked') } : { error: await readErrorText(res), tab: 'security' };
    }
    default: return { error: t('account.unknownAction'), tab: 'settings' };
  }
}

/**
 * The proof the API asks of someone changing their own password or two-factor setting: the
 * current password, or a code from the authenticator app typed in the same field (six digits
 * go as both; the API accepts either). Null when the field is empty.
 */
function reauthentication(form: FormData): { current_password: string; passcode?: string } | null {
  const value = String(form.get('current_password') ?? '');
  if (!value) return null;
  return /^\d{6}$/.test(value.trim()) ? { current_password: value, passcode: value.trim() } : { current_password: value };
}

/** The API's answer to a refused change, with a wrong current password in the reader's language. */
async function securityErrorText(res: Response, t: (key: string) => string): Promise<string> {
  const text = await readErrorText(res);
  return text.startsWith('current_password: incorrect') ? t('account.currentPasswordWrong') : text;
}

async function saveSettings(astro: AstroLike, user: EditedUser, field: Form, page: string, t: (key: string, o?: Record<string, unknown>) => string, self: boolean): Promise<AccountOutcome> {
  const body = {
    name: field('name'),
    // an external user's username and email come from the identity provider
    username: user.external ? user.username : field('username'),
    email: user.external ? user.email : field('email'),
    alert: field('alert') === 'on',
    ...(self ? {} : { admin: field('admin') === 'on', can_create_project: field('can_create_project') === 'on' }),
  };
  if (!body.name) return { error: t('account.nameRequired'), tab: 'settings' };
  const res = await apiSend(astro, 'PUT', `/api/users/${user.id}`, body);
  return res.ok ? { redirect: flashPath(page, 'user_saved', body.name) } : { error: await readErrorText(res), tab: 'settings' };
}
