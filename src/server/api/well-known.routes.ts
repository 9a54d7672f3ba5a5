import { Hono } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { publishedKeys, SIGNING_ALG } from '../identity/signing-keys.ts';
import { tokenIssuer } from '../identity/task-token.ts';

/** Claims a task token may carry, announced in the discovery document. */
const CLAIMS = ['iss', 'aud', 'sub', 'iat', 'nbf', 'exp', 'jti', 'project_id', 'template_id', 'user_id', 'workflow_run_id'];

/**
 * `/.well-known/jwks.json` and `/.well-known/openid-configuration`: how a verifier (Vault's JWT
 * auth, a cloud provider, the `jose` library) finds the keys that sign task tokens. Both are
 * public and answer 404 while `jwt.enabled` is off.
 */
export const wellKnownRoutes = new Hono<AppEnv>();

wellKnownRoutes.use('*', async (c, next) => {
  if (!c.get('deps').config.jwt.enabled) return c.json({ error: 'Not Found' }, 404);
  await next();
  c.header('cache-control', 'public, max-age=60');
});

wellKnownRoutes.get('/jwks.json', async (c) => {
  const { db, secrets } = c.get('deps');
  return c.json({ keys: await publishedKeys(db, secrets) });
});

wellKnownRoutes.get('/openid-configuration', (c) => {
  const { config } = c.get('deps');
  return c.json({
    issuer: tokenIssuer(config),
    jwks_uri: `${config.web_host}/.well-known/jwks.json`,
    response_types_supported: ['id_token'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: [SIGNING_ALG],
    claims_supported: CLAIMS,
  });
});
