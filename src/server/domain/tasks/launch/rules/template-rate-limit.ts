import { ApiError } from '../../../../http/errors.ts';
import { templateRateLimit } from '../../../templates/concurrency-fields.ts';
import type { StartPath } from '../start-paths.ts';
import type { LaunchRule } from '../launch.ts';
import { serialiseTemplateStarts } from './template-concurrency.ts';

/** The start paths nobody presses: a storm of them is what the limit is for. A person's start always counts and always goes. */
const TRIGGERS: ReadonlySet<StartPath> = new Set(['schedule', 'webhook']);

/** The refusal of a trigger past the template's rate limit; `Retry-After` says when one may start again. */
export const rateLimited = (name: string, starts: number, window: string, retryAfter: number) => new ApiError(
  'too_many', `Template "${name}" starts at most ${starts} task${starts === 1 ? '' : 's'} per ${window} from schedules and webhooks; this start is skipped`,
  {}, { 'Retry-After': String(retryAfter) },
);

/**
 * A template's rate limit for triggers: every start of the template in the last window counts,
 * and a schedule or webhook past the limit starts nothing (the schedule's firing is recorded as
 * skipped, the webhook answered 429). Counted in the queuing transaction, so a burst of
 * deliveries at once cannot slip past it.
 */
export const templateRateLimitRule: LaunchRule = {
  name: 'template rate limit',
  async admit(tx, launch) {
    if (!TRIGGERS.has(launch.starter.path)) return;
    const template = await tx.selectFrom('template').select(['name', 'rate_limit_starts', 'rate_limit_window']).where('id', '=', launch.template.id).executeTakeFirstOrThrow();
    const limit = templateRateLimit(template);
    if (!limit) return;
    await serialiseTemplateStarts(tx, launch.template.id);
    const since = new Date(Date.now() - limit.seconds * 1000).toISOString();
    const recent = await tx.selectFrom('task').select('created').where('template_id', '=', launch.template.id).where('created', '>=', since)
      .orderBy('created', 'desc').limit(limit.starts).execute();
    if (recent.length < limit.starts) return;
    // the oldest of the last `starts` leaves the window first
    const freeAt = Date.parse(recent[recent.length - 1]!.created) + limit.seconds * 1000;
    throw rateLimited(template.name, limit.starts, limit.window, Math.max(1, Math.ceil((freeAt - Date.now()) / 1000)));
  },
};
