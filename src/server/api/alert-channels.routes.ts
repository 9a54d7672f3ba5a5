import { Hono } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { idParam, readJson } from '../http/validation.ts';
import { actorOf } from './route-context.ts';
import { assertBodyMatchesUrl } from '../domain/project-resource.ts';
import { alertChannelInputSchema, alertChannelRowToAlertChannel } from '../domain/alert-channels/alert-channel.ts';
import {
  createAlertChannel, deleteAlertChannel, findAlertChannel, listAlertChannels, updateAlertChannel,
} from '../domain/alert-channels/alert-channel.service.ts';
import { sendToProjectChannel } from '../alerts/project-channels.ts';
import type { TaskAlert } from '../alerts/task-alert.ts';


/**
 * `/api/project/:project_id/alert-channels`: the project's own alert channels (Signalbox). Any
 * member lists them (their URLs and tokens are never returned, only `url_set`/`token_set`);
 * owners and managers change and test them.
 */
export const alertChannelsRoutes = new Hono<AppEnv>();

alertChannelsRoutes.get('/', async (c) => c.json((await listAlertChannels(c.var.deps.db, c.var.project.id)).map(alertChannelRowToAlertChannel)));

alertChannelsRoutes.post('/', async (c) => {
  const input = await readJson(c, alertChannelInputSchema);
  assertBodyMatchesUrl(input, c.var.project.id);
  const row = await c.var.deps.db.transaction().execute((tx) => createAlertChannel(tx, c.var.deps.secrets, actorOf(c), input));
  return c.json(alertChannelRowToAlertChannel(row), 201);
});

alertChannelsRoutes.get('/:channel_id', async (c) =>
  c.json(alertChannelRowToAlertChannel(await findAlertChannel(c.var.deps.db, c.var.project.id, idParam(c, 'channel_id')))));

alertChannelsRoutes.put('/:channel_id', async (c) => {
  const id = idParam(c, 'channel_id');
  const input = await readJson(c, alertChannelInputSchema);
  assertBodyMatchesUrl(input, c.var.project.id, id);
  await c.var.deps.db.transaction().execute((tx) => updateAlertChannel(tx, c.var.deps.secrets, actorOf(c), id, input));
  return c.body(null, 204);
});

alertChannelsRoutes.delete('/:channel_id', async (c) => {
  const id = idParam(c, 'channel_id');
  await c.var.deps.db.transaction().execute((tx) => deleteAlertChannel(tx, actorOf(c), id));
  return c.body(null, 204);
});

/**
 * Sends a test alert through this one channel now (even when it is paused) and answers how it
 * went: `{ok: true}` or `{ok: false, error}` (the service's HTTP status or why it could not be
 * reached; never its URL). Reads no body and changes nothing.
 */
alertChannelsRoutes.post('/:channel_id/test', async (c) => {
  const { project, user, deps } = c.var;
  const channel = await findAlertChannel(deps.db, project.id, idParam(c, 'channel_id'));
  const alert: TaskAlert = {
    projectId: project.id, projectName: project.name, templateId: 0, templateName: 'Test alert', taskId: 0, status: 'success',
    author: user.name || user.username, message: `This is a test alert from Signalbox: alerts of this project reach the channel "${channel.name}".`,
    version: '', url: `${deps.config.web_host.replace(/\/+$/, '')}/project/${project.id}/alerts`, chat: null,
  };
  const result = await sendToProjectChannel(deps, channel, alert);
  return c.json(result.ok ? { ok: true } : { ok: false, error: result.error ?? 'failed' });
});
