import type { Config } from './config/config.ts';
import type { Db } from './db/database.ts';
import type { SecretBox } from './crypto/secret-box.ts';
import type { EventBus } from './events/event-bus.ts';
import type { Metrics } from './metrics/metrics.ts';

/**
 * What the runner API needs from the outside, built once at start-up (or per test) and handed
 * to every route through the `deps` context variable.
 */
export interface Deps {
  db: Db;
  config: Config;
  secrets: SecretBox;
  bus: EventBus;
  /** Prometheus metrics; null unless `metrics.enabled` */
  metrics: Metrics | null;
  /** Semaphore-compatible version string shown by /api/info. */
  version: string;
}
