import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import type { Config } from '../config/config.ts';
import type { Db } from '../db/database.ts';
import type { SecretBox } from '../crypto/secret-box.ts';
import type { TaskRow, TemplateRow } from '../db/schema.ts';
import { parseDuration } from '../lib/duration.ts';
import { currentSigningKey, SIGNING_ALG } from './signing-keys.ts';

/** At most this many audiences per template (Semaphore's limit). */
export const MAX_AUDIENCES = 32;

/** The `iss` of task tokens: `jwt.issuer`, else the public URL. */
export function tokenIssuer(config: Config): string {
  return config.jwt.issuer || config.web_host;
}

/** A template's audiences (a JSON array column); anything else reads as none. */
export function templateAudiences(template: Pick<TemplateRow, 'jwt_audience'>): string[] {
  try {
    const list: unknown = JSON.parse(template.jwt_audience ?? '[]');
    return Array.isArray(list) ? list.filter((a): a is string => typeof a === 'string' && a !== '') : [];
  } catch {
    return [];
  }
}

/** The lifetime of a template's tokens in seconds: its own TTL, else `jwt.default_ttl`, never above `jwt.max_ttl`. */
export function templateTtl(config: Config, template: Pick<TemplateRow, 'jwt_ttl'>): number {
  const own = template.jwt_ttl ? parseDuration(template.jwt_ttl) : null;
  return Math.min(own || config.jwt.default_ttl, config.jwt.max_ttl);
}

/** Whether tasks of `template` get a token: issuance on in the config and on the template. */
export function tokenWanted(config: Config, template: Pick<TemplateRow, 'jwt_enabled'>): boolean {
  return config.jwt.enabled && Boolean(template.jwt_enabled);
}

/**
 * Mints the task's identity token (`SEMAPHORE_JWT`): iss, aud (the template's audiences), sub
 * `task:<id>`, iat/nbf/exp, a fresh jti, project_id, template_id, user_id (only when a person
 * started it) and workflow_run_id (when a workflow did). Null when the template does not ask
 * for one or issuance is off.
 * @example const jwt = await mintTaskToken(deps, task, template);
 */
export async function mintTaskToken(deps: { db: Db; secrets: SecretBox; config: Config }, task: TaskRow, template: TemplateRow, now = Date.now()): Promise<string | null> {
  if (!tokenWanted(deps.config, template)) return null;
  const { kid, key } = await currentSigningKey(deps.db, deps.secrets);
  const iat = Math.floor(now / 1000);
  const claims: Record<string, unknown> = { project_id: task.project_id, template_id: task.template_id };
  if (task.user_id !== null && task.schedule_id === null && task.integration_id === null) claims.user_id = task.user_id;
  const workflowRun = await deps.db.selectFrom('workflow_run_node').select('run_id').where('task_id', '=', task.id).executeTakeFirst();
  if (workflowRun) claims.workflow_run_id = workflowRun.run_id;
  const jwt = new SignJWT(claims).setProtectedHeader({ alg: SIGNING_ALG, kid, typ: 'JWT' })
    .setIssuer(tokenIssuer(deps.config)).setSubject(`task:${task.id}`)
    .setIssuedAt(iat).setNotBefore(iat).setExpirationTime(iat + templateTtl(deps.config, template)).setJti(randomUUID());
  const audiences = templateAudiences(template);
  if (audiences.length) jwt.setAudience(audiences.length === 1 ? audiences[0]! : audiences);
  return jwt.sign(key);
}
