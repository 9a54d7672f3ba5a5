import { AsyncLocalStorage } from 'node:async_hooks';

/** Who acts in a request: a signed-in user, maybe through an API token (by its short prefix). */
export interface AuditActor {
  userId: number | null;
  name: string;
  /** the first characters of the API token used ('' for a cookie session) */
  token: string;
}

/**
 * What the audit trail knows about the request being served: filled in by the API's first
 * middleware (address, agent, route), `authenticate` (actor), `projectScope` (project) and
 * `readJson` (names of the fields the body set). Services never pass it around; the audit
 * writer reads it from here.
 */
export interface AuditRequest {
  /** "METHOD /api/route/:pattern" */
  route: string;
  method: string;
  clientIp: string;
  userAgent: string;
  actor: AuditActor | null;
  project: { id: number; name: string } | null;
  /** top-level names of the validated body (values are never kept) */
  fields: string[];
  /** URL parameters of the route, for the object a fallback record names */
  params: Record<string, string>;
  /** audit rows this request wrote; a request writes one */
  written: number;
  /** the id of the first audit row it wrote (its activity-log entries point at it) */
  auditId: number | null;
  /** the request turned out to change nothing (signing out without a session) */
  unchanged: boolean;
  /** set once the response is decided: later work (background jobs) acts as the server */
  closed: boolean;
  /** a bulk request writes one row per item itself: its events add none (see auditEachItem) */
  itemised?: boolean;
}

const storage = new AsyncLocalStorage<AuditRequest>();

/**
 * Runs `work` with `request` as the current audit request.
 * @example await runWithAuditRequest(request, () => next());
 */
export function runWithAuditRequest<T>(request: AuditRequest, work: () => T): T {
  return storage.run(request, work);
}

/** The request being served, or undefined for the server's own work (scheduler, engine). */
export function currentAuditRequest(): AuditRequest | undefined {
  const request = storage.getStore();
  return request && !request.closed ? request : undefined;
}

/** Records who acts in the current request (authenticate, sign-in). */
export function setAuditActor(actor: AuditActor): void {
  const request = currentAuditRequest();
  if (request) request.actor = actor;
}

/** Records the project the current request works in. */
export function setAuditProject(project: { id: number; name: string }): void {
  const request = currentAuditRequest();
  if (request) request.project = { id: project.id, name: project.name };
}

/** Records the names of the fields the current request's body set. */
export function setAuditFields(input: unknown): void {
  const request = currentAuditRequest();
  if (request && input && typeof input === 'object' && !Array.isArray(input)) request.fields = Object.keys(input);
}

/** Says the current request changed nothing, so the safety net records nothing for it. */
export function auditNothingChanged(): void {
  const request = currentAuditRequest();
  if (request) request.unchanged = true;
}

/**
 * Says the current request acts on many objects and writes one audit row per object itself
 * (writeAudit in each item's transaction): the activity-log events of its items add none.
 */
export function auditEachItem(): void {
  const request = currentAuditRequest();
  if (request) request.itemised = true;
}

/** Starts the next item of a bulk request: its events share the audit row written for it, not the previous item's. */
export function beginAuditItem(): void {
  const request = currentAuditRequest();
  if (request) request.auditId = null;
}
