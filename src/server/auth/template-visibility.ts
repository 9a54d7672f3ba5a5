import type { Context } from 'hono';
import type { AppEnv } from '../http/context.ts';
import type { Db, Tx } from '../db/database.ts';
import { visibleTemplates, type TemplateScope, type TemplateViewer } from '../domain/templates/template-visibility.ts';

// The project route's caller's side of template visibility (domain/templates/template-visibility.ts).

const scopes = new WeakMap<Context<AppEnv>, Promise<TemplateScope>>();

/**
 * The project route's caller's scope, read once per request; inside a transaction give it
 * (SQLite has one connection: a read beside the transaction would wait for it forever).
 */
export function templateScopeOf(c: Context<AppEnv>, db: Db | Tx = c.var.deps.db): Promise<TemplateScope> {
  let scope = scopes.get(c);
  if (!scope) {
    scope = visibleTemplates(db, viewerOf(c));
    scopes.set(c, scope);
  }
  return scope;
}

/** The project route's caller as a viewer. */
export function viewerOf(c: Context<AppEnv>): TemplateViewer {
  return { projectId: c.var.project.id, userId: c.var.user.id, admin: c.var.user.admin, role: c.var.role, permissions: c.var.permissions };
}

