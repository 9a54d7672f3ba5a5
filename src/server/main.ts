import type { Config } from './config/config.ts';
import { boot } from './boot.ts';
import { createHostServer } from './host/http-server.ts';
import { announceScheduleChangesTo, applyScheduleChange, startScheduler } from './scheduler/scheduler.ts';
import { startEngine } from './engine/engine.ts';
import { startAlerts } from './alerts/alerts.ts';
import { startRetention } from './retention/retention-job.ts';
import { warnWhenTasksRunAsRoot } from './engine/process/task-user.ts';
import { taskIdentitySource } from './engine/process/task-identity-source.ts';
import { startPgRelay } from './events/pg-relay.ts';
import { configuredSinks, startAuditExport } from './audit-export/audit-export.ts';
import { startEventWebhooks } from './event-webhooks/event-webhooks.ts';
import { scheduledSync } from './engine/inventory/inventory-sync.ts';

/**
 * `signalbox server`: migrate, then serve the runner API and the console on one port until
 * SIGTERM/SIGINT, which close the listener and the database cleanly.
 */
export async function runServer(config: Config): Promise<void> {
  const identities = taskIdentitySource(config.process, config.tmp_path);
  const deps = await boot(config);
  // after boot: a server that refuses to start says only why
  warnWhenTasksRunAsRoot(identities.kind === 'server', (line) => console.warn(`[signalbox] ${line}`));
  // Several servers may share a PostgreSQL database: their buses meet through LISTEN/NOTIFY
  // before anything publishes, so no task update of this process goes unheard by the others.
  const relay = config.db.dialect === 'postgres'
    ? await startPgRelay(deps.bus, deps.db, config.db, { onScheduleChange: (id) => void applyScheduleChange(id).catch(() => undefined) })
    : null;
  const stopAnnouncing = relay ? announceScheduleChangesTo((id) => relay.scheduleChanged(id)) : () => {};
  const host = await createHostServer(deps);
  const alerts = startAlerts(deps);
  const eventWebhooks = startEventWebhooks(deps);
  const engine = await startEngine(deps, identities);
  await new Promise<void>((resolve) => host.server.listen(config.port, config.interface || undefined, resolve));
  const scheduler = startScheduler(deps, { syncInventory: scheduledSync(deps) });
  const retention = startRetention(deps);
  const auditExport = startAuditExport(deps, configuredSinks(config));
  console.log(`[signalbox] listening on http://${config.interface || 'localhost'}:${config.port} (${config.db.dialect})`);
  const stop = async (signal: string) => {
    console.log(`[signalbox] ${signal}: shutting down`);
    stopAnnouncing();
    await scheduler.stop();
    retention.stop();
    await auditExport.stop();
    await engine.stop();
    alerts.stop();
    await alerts.settled();
    await eventWebhooks.stop();
    await relay?.stop();
    await host.close();
    await deps.db.destroy();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
}
