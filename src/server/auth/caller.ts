import type { UserRow } from '../db/schema.ts';

/** Who makes an API call: the user, and the session or bearer token that proved it. */
export interface Caller {
  user: UserRow;
  sessionId: string | undefined;
  /** the hash of the bearer token the caller used, when it used one */
  tokenHash: string | undefined;
  /** the first characters of the bearer token, for the audit trail ('' for a session) */
  tokenPrefix: string;
  /** false while a cookie session waits for its second factor; bearer tokens skip that step */
  verified: boolean;
}
