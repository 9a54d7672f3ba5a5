import type { Deps } from '../../deps.ts';

const GIT_SERVER_VARS = ['PATH', 'LANG', 'HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY', 'http_proxy', 'https_proxy', 'no_proxy', 'SSL_CERT_FILE', 'GIT_SSL_CAINFO'];

/** The environment git runs in: HOME in tmp_path, the server's git variables and forwarded ones only. */
export function gitProcessEnv(config: Deps['config']): Record<string, string> {
  const env: Record<string, string> = { HOME: config.tmp_path };
  for (const name of [...GIT_SERVER_VARS, ...config.forwarded_env_vars]) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  env.PATH ??= '/usr/bin:/bin';
  env.LANG ??= 'C.UTF-8';
  return env;
}
