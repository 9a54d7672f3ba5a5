import { restrictOutgoingAddresses } from './lib/outgoing-http.ts';
import type { Config } from './config/config.ts';
import type { Deps } from './deps.ts';
import { migrateToLatest, openDatabase } from './db/database.ts';
import { resolveEncryptionKey } from './crypto/encryption-key.ts';
import { SecretBox } from './crypto/secret-box.ts';
import { EventBus } from './events/event-bus.ts';
import { ensureAdminUser } from './domain/users/admin-bootstrap.ts';
import { VERSION } from './version.ts';
import { configureAudit } from './domain/audit/audit.writer.ts';

/**
 * Opens and migrates the database and builds everything the API needs. Used by the server,
 * the CLI and the tests alike.
 */
export async function boot(config: Config, log: (line: string) => void = (l) => console.warn(`[signalbox] ${l}`)): Promise<Deps> {
  configureAudit({ enabled: config.audit.enabled });
  restrictOutgoingAddresses(config.outgoing_addresses);
  const db = openDatabase(config.db);
  await migrateToLatest(db);
  const secrets = new SecretBox(await resolveEncryptionKey(config, db, log));
  if (config.admin) await ensureAdminUser(db, config.admin);
  const bus = new EventBus();
  // prom-client (~13 MB) is loaded only when metrics are on
  const metrics = config.metrics.enabled ? new (await import('./metrics/metrics.ts')).Metrics(db) : null;
  metrics?.listen(bus);
  return { db, config, secrets, bus, metrics, version: VERSION };
}
