import type { Deps } from '../deps.ts';
import type { UserRow, ProjectRow } from '../db/schema.ts';
import type { PremiumFeatures } from '../system/premium-features.ts';

/** Typed context variables that middleware loads and handlers read. */
export interface AppVariables {
  deps: Deps;
  /** which of Semaphore's premium features the mounted routes serve */
  premiumFeatures: PremiumFeatures;
  /** the signed-in user (set by `authenticate`) */
  user: UserRow;
  /** hash of the cookie session, absent for bearer-token requests */
  sessionId: string | undefined;
  /** set by `projectScope` */
  project: ProjectRow;
  role: string;
  permissions: number;
}

export interface AppEnv {
  Variables: AppVariables;
}
