import { OUTGOING_ADDRESS_POLICIES, type OutgoingAddressPolicy } from '../lib/outgoing-address.ts';
import { readFileSync } from 'node:fs';
import type { DbSettings } from '../db/database.ts';
import { ConfigError } from './config-error.ts';
import { text, oneOf, imageReference, port, count, optionalId, uidRange, absolutePath, duration, flag, flagDefault, url, aesKey, timezone, jsonObject, jsonArray, addressList, jsonList, stringList } from './setting-readers.ts';
import { EMAIL_MATCHING, readGroupMappings, readOidcProviders, type EmailMatching, type GroupMapping, type LdapConfig, type OidcProviderConfig, type ProxyAuthConfig, type TotpConfig } from './auth-config.ts';

/** Everything the server reads at start-up. Names follow Semaphore's config.json keys. */
/** `secret_sources.env`: variable names, or prefixes ending in `*`; `secret_sources.dirs`: absolute directories. */
export interface SecretSourcesPolicy {
  env: string[];
  dirs: string[];
}

export interface Config {
  db: DbSettings;
  port: number;
  interface: string;
  tmp_path: string;
  /** the server's public URL: SEMAPHORE_WEB_ROOT, or http://localhost:<port> for links when unset */
  web_host: string;
  /** whether SEMAPHORE_WEB_ROOT was set: `/api/info` sends "" when not, as Semaphore does */
  web_host_configured: boolean;
  cookie_hash: string;
  access_key_encryption: string;
  max_parallel_tasks: number;
  max_task_duration_sec: number;
  max_tasks_per_template: number;
  non_admin_can_create_project: boolean;
  password_login_disable: boolean;
  use_remote_runner: boolean;
  /** the global registration token runners may register with ('' = only per-runner tokens) */
  runner_registration_token: string;
  /** remote runners: offline after this many seconds without contact (their starting tasks are reassigned) */
  runner_offline_sec: number;
  /** remote runners: a running task fails when its runner has been silent this long */
  runner_fail_sec: number;
  /** remote runners: how long a runner's poll is held open when there is nothing to tell it */
  runner_poll_hold_ms: number;
  schedule_timezone: string;
  global_integration_alias: string;
  env_vars: Record<string, string>;
  forwarded_env_vars: string[];
  apps: Record<string, unknown>;
  /** SIGNALBOX_API_URL: the console talks to this remote runner API instead of the in-process one. */
  api_url: string;
  /** SEMAPHORE_TRUSTED_PROXIES: peers whose X-Real-IP / X-Forwarded-* headers are believed */
  trusted_proxies: string[];
  /** SEMAPHORE_OUTGOING_ADDRESSES: which addresses alerts, webhooks, storages and OIDC may reach */
  outgoing_addresses: OutgoingAddressPolicy;
  admin: { login: string; password: string; name: string; email: string } | null;
  alerts: AlertSettings;
  /** `metrics.*`: Prometheus exposition at /api/metrics */
  metrics: { enabled: boolean; username: string; password: string };
  /** global retention (0 = keep): days tasks are kept, days their output is kept */
  task_retention_days: number;
  output_retention_days: number;
  /** the config.json read at start ('' without one); a generated key is kept beside it */
  config_path: string;
  /** Semaphore's `process` section: the OS identity (and root) every task process runs with. */
  process: ProcessSettings;
  /** execution environments (issue 47): the container CLI, the image of templates that name none ('' = on the host), the pull policy */
  executor: ExecutorSettings;
  totp: TotpConfig;
  ldap: LdapConfig;
  oidc_providers: Record<string, OidcProviderConfig>;
  /** whether an LDAP/OIDC sign-in with no linked identity may take an existing external user by email/username (Semaphore's modes; `never` here by default) */
  external_auth_email_matching: EmailMatching;
  /** directory groups → admin flag and project roles, applied at each LDAP/OIDC/proxy sign-in */
  group_mappings: GroupMapping[];
  /** Semaphore's `auth.jwt`: sign-in by the signed JWT an identity-aware proxy adds to each request */
  proxy_auth: ProxyAuthConfig;
  /** Semaphore's `jwt` section: task identity tokens (TTLs in seconds) */
  jwt: JwtSettings;
  audit: AuditSettings;
  /** keys and variable-group secrets read at task start from the server's environment or files: only these */
  secret_sources: SecretSourcesPolicy;
}

export interface JwtSettings {
  enabled: boolean;
  /** the `iss` claim; web_host when not set */
  issuer: string;
  default_ttl: number;
  max_ttl: number;
}

/** The audit trail (issue 32): whether it is written, how long it is kept, where it is exported. */
export interface AuditSettings {
  /** SIGNALBOX_AUDIT_ENABLED (default true); off only to measure what auditing costs */
  enabled: boolean;
  /** days audit rows are kept (0 = keep); rows not yet exported are kept regardless */
  retention_days: number;
  /** Semaphore's `log.events`: an append-only JSON-lines (or raw) file with rotation */
  file: { enabled: boolean; format: 'json' | 'raw'; filename: string; maxsize: number; maxbackups: number; compress: boolean };
  /** Semaphore's `syslog`: RFC 5424 over udp, tcp or tls */
  syslog: { enabled: boolean; network: 'udp' | 'tcp' | 'tls'; address: string; tag: string; tls_ca: string; tls_skip_verify: boolean };
  /** Semaphore's `log.audit_webhook`: plain JSON or Splunk HEC, with extra headers */
  webhook: { enabled: boolean; url: string; format: '' | 'splunk_hec'; headers: Record<string, string> };
}

/** Semaphore's alert settings (`email_*`, `telegram_*`, ...), plus a generic JSON webhook. */
export interface AlertSettings {
  email: { enabled: boolean; sender: string; host: string; port: number; username: string; password: string; secure: boolean; tls: boolean };
  telegram: { enabled: boolean; chat: string; token: string; api_url: string };
  slack: { enabled: boolean; url: string };
  rocketchat: { enabled: boolean; url: string };
  microsoft_teams: { enabled: boolean; url: string };
  dingtalk: { enabled: boolean; url: string };
  gotify: { enabled: boolean; url: string; token: string };
  webhook: { enabled: boolean; url: string };
}

export interface ExecutorSettings {
  /** the container CLI on this machine */
  engine: 'podman' | 'docker';
  /** SEMAPHORE_EXECUTOR_IMAGE: tasks of templates and projects that name no image run in this one; '' = on the host */
  image: string;
  /** when an image is pulled, unless the template says otherwise */
  pull: 'always' | 'if-missing' | 'never';
}

/** Empty user, null ids and no pool mean "tasks run as the server's own user". */
export interface ProcessSettings {
  user: string;
  uid: number | null;
  gid: number | null;
  chroot: string;
  /** SEMAPHORE_PROCESS_UID_POOL: each running task takes a user id of its own from this range */
  uid_pool: { first: number; last: number } | null;
}


export { ConfigError };

type Source = Record<string, unknown>;

/** Where each setting comes from: env name, config.json path, and how to read it. */
const SETTINGS = {
  dialect: { env: 'SEMAPHORE_DB_DIALECT', json: 'dialect', read: oneOf(['sqlite', 'postgres'], 'sqlite') },
  db_host: { env: 'SEMAPHORE_DB_HOST', json: '$db.host', read: text('') },
  db_user: { env: 'SEMAPHORE_DB_USER', json: '$db.user', read: text('') },
  db_pass: { env: 'SEMAPHORE_DB_PASS', json: '$db.pass', read: text('') },
  db_name: { env: 'SEMAPHORE_DB', json: '$db.name', read: text('') },
  db_options: { env: 'SEMAPHORE_DB_OPTIONS', json: '$db.options', read: jsonObject() },
  port: { env: 'SEMAPHORE_PORT', json: 'port', read: port(3000) },
  interface: { env: 'SEMAPHORE_INTERFACE', json: 'interface', read: text('') },
  tmp_path: { env: 'SEMAPHORE_TMP_PATH', json: 'tmp_path', read: text('/tmp/semaphore') },
  web_host: { env: 'SEMAPHORE_WEB_ROOT', json: 'web_host', read: url() },
  cookie_hash: { env: 'SEMAPHORE_COOKIE_HASH', json: 'cookie_hash', read: text('') },
  access_key_encryption: { env: 'SEMAPHORE_ACCESS_KEY_ENCRYPTION', json: 'access_key_encryption', read: aesKey() },
  max_parallel_tasks: { env: 'SEMAPHORE_MAX_PARALLEL_TASKS', json: 'max_parallel_tasks', read: count(10) },
  max_task_duration_sec: { env: 'SEMAPHORE_MAX_TASK_DURATION_SEC', json: 'max_task_duration_sec', read: count(0) },
  max_tasks_per_template: { env: 'SEMAPHORE_MAX_TASKS_PER_TEMPLATE', json: 'max_tasks_per_template', read: count(0) },
  non_admin_can_create_project: { env: 'SEMAPHORE_NON_ADMIN_CAN_CREATE_PROJECT', json: 'non_admin_can_create_project', read: flag() },
  password_login_disable: { env: 'SEMAPHORE_PASSWORD_LOGIN_DISABLED', json: 'password_login_disable', read: flag() },
  use_remote_runner: { env: 'SEMAPHORE_USE_REMOTE_RUNNER', json: 'use_remote_runner', read: flag() },
  runner_registration_token: { env: 'SEMAPHORE_RUNNER_REGISTRATION_TOKEN', json: 'runner_registration_token', read: text('') },
  runner_offline_sec: { env: 'SIGNALBOX_RUNNER_OFFLINE_SEC', json: 'runner_offline_sec', read: count(120) },
  runner_fail_sec: { env: 'SIGNALBOX_RUNNER_FAIL_SEC', json: 'runner_fail_sec', read: count(420) },
  runner_poll_hold_ms: { env: 'SIGNALBOX_RUNNER_POLL_HOLD_MS', json: 'runner_poll_hold_ms', read: count(25000) },
  schedule_timezone: { env: 'SEMAPHORE_SCHEDULE_TIMEZONE', json: 'schedule.timezone', read: timezone() },
  global_integration_alias: { env: 'SEMAPHORE_INTEGRATION_ALIAS', json: 'global_integration_alias', read: text('') },
  env_vars: { env: 'SEMAPHORE_ENV_VARS', json: 'env_vars', read: jsonObject() },
  forwarded_env_vars: { env: 'SEMAPHORE_FORWARDED_ENV_VARS', json: 'forwarded_env_vars', read: jsonArray() },
  apps: { env: 'SEMAPHORE_APPS', json: 'apps', read: jsonObject() },
  api_url: { env: 'SIGNALBOX_API_URL', json: 'signalbox_api_url', read: url() },
  email_alert: { env: 'SEMAPHORE_EMAIL_ALERT', json: 'email_alert', read: flag() },
  email_sender: { env: 'SEMAPHORE_EMAIL_SENDER', json: 'email_sender', read: text('') },
  email_host: { env: 'SEMAPHORE_EMAIL_HOST', json: 'email_host', read: text('') },
  email_port: { env: 'SEMAPHORE_EMAIL_PORT', json: 'email_port', read: port(25) },
  email_username: { env: 'SEMAPHORE_EMAIL_USERNAME', json: 'email_username', read: text('') },
  email_password: { env: 'SEMAPHORE_EMAIL_PASSWORD', json: 'email_password', read: text('') },
  email_secure: { env: 'SEMAPHORE_EMAIL_SECURE', json: 'email_secure', read: flag() },
  email_tls: { env: 'SEMAPHORE_EMAIL_TLS', json: 'email_tls', read: flag() },
  telegram_alert: { env: 'SEMAPHORE_TELEGRAM_ALERT', json: 'telegram_alert', read: flag() },
  telegram_chat: { env: 'SEMAPHORE_TELEGRAM_CHAT', json: 'telegram_chat', read: text('') },
  telegram_token: { env: 'SEMAPHORE_TELEGRAM_TOKEN', json: 'telegram_token', read: text('') },
  telegram_api_url: { env: 'SEMAPHORE_TELEGRAM_API_URL', json: 'telegram_api_url', read: url() },
  slack_alert: { env: 'SEMAPHORE_SLACK_ALERT', json: 'slack_alert', read: flag() },
  slack_url: { env: 'SEMAPHORE_SLACK_URL', json: 'slack_url', read: url() },
  rocketchat_alert: { env: 'SEMAPHORE_ROCKETCHAT_ALERT', json: 'rocketchat_alert', read: flag() },
  rocketchat_url: { env: 'SEMAPHORE_ROCKETCHAT_URL', json: 'rocketchat_url', read: url() },
  microsoft_teams_alert: { env: 'SEMAPHORE_MICROSOFT_TEAMS_ALERT', json: 'microsoft_teams_alert', read: flag() },
  microsoft_teams_url: { env: 'SEMAPHORE_MICROSOFT_TEAMS_URL', json: 'microsoft_teams_url', read: url() },
  dingtalk_alert: { env: 'SEMAPHORE_DINGTALK_ALERT', json: 'dingtalk_alert', read: flag() },
  dingtalk_url: { env: 'SEMAPHORE_DINGTALK_URL', json: 'dingtalk_url', read: url() },
  gotify_alert: { env: 'SEMAPHORE_GOTIFY_ALERT', json: 'gotify_alert', read: flag() },
  gotify_url: { env: 'SEMAPHORE_GOTIFY_URL', json: 'gotify_url', read: url() },
  gotify_token: { env: 'SEMAPHORE_GOTIFY_TOKEN', json: 'gotify_token', read: text('') },
  webhook_alert: { env: 'SEMAPHORE_WEBHOOK_ALERT', json: 'webhook_alert', read: flag() },
  webhook_url: { env: 'SEMAPHORE_WEBHOOK_URL', json: 'webhook_url', read: url() },
  metrics_enabled: { env: 'SEMAPHORE_METRICS_ENABLED', json: 'metrics.enabled', read: flag() },
  metrics_username: { env: 'SEMAPHORE_METRICS_USERNAME', json: 'metrics.username', read: text('') },
  metrics_password: { env: 'SEMAPHORE_METRICS_PASSWORD', json: 'metrics.password', read: text('') },
  task_retention_days: { env: 'SEMAPHORE_TASK_RETENTION_DAYS', json: 'task_retention_days', read: count(0) },
  output_retention_days: { env: 'SEMAPHORE_OUTPUT_RETENTION_DAYS', json: 'output_retention_days', read: count(0) },
  process_user: { env: 'SEMAPHORE_PROCESS_USER', json: 'process.user', read: text('') },
  process_uid: { env: 'SEMAPHORE_PROCESS_UID', json: 'process.uid', read: optionalId() },
  process_gid: { env: 'SEMAPHORE_PROCESS_GID', json: 'process.gid', read: optionalId() },
  process_chroot: { env: 'SEMAPHORE_PROCESS_CHROOT', json: 'process.chroot', read: absolutePath() },
  process_uid_pool: { env: 'SEMAPHORE_PROCESS_UID_POOL', json: 'process.uid_pool', read: uidRange() },
  executor: { env: 'SEMAPHORE_EXECUTOR', json: 'executor', read: oneOf(['podman', 'docker'], 'podman') },
  executor_image: { env: 'SEMAPHORE_EXECUTOR_IMAGE', json: 'executor_image', read: imageReference() },
  executor_pull: { env: 'SEMAPHORE_EXECUTOR_PULL', json: 'executor_pull', read: oneOf(['always', 'if-missing', 'never'], 'if-missing') },
  trusted_proxies: { env: 'SEMAPHORE_TRUSTED_PROXIES', json: 'trusted_proxies', read: addressList() },
  outgoing_addresses: { env: 'SEMAPHORE_OUTGOING_ADDRESSES', json: 'outgoing.addresses', read: oneOf([...OUTGOING_ADDRESS_POLICIES], 'private') },
  totp_enabled: { env: 'SEMAPHORE_TOTP_ENABLED', json: 'auth.totp.enabled', read: flag() },
  totp_allow_recovery: { env: 'SEMAPHORE_TOTP_ALLOW_RECOVERY', json: 'auth.totp.allow_recovery', read: flag() },
  totp_issuer: { env: 'SEMAPHORE_TOTP_ISSUER', json: 'auth.totp.issuer', read: text('Signalbox') },
  ldap_enable: { env: 'SEMAPHORE_LDAP_ENABLE', json: 'ldap_enable', read: flag() },
  ldap_server: { env: 'SEMAPHORE_LDAP_SERVER', json: 'ldap_server', read: text('') },
  ldap_needtls: { env: 'SEMAPHORE_LDAP_NEEDTLS', json: 'ldap_needtls', read: flag() },
  ldap_starttls: { env: 'SEMAPHORE_LDAP_STARTTLS', json: 'ldap_starttls', read: flag() },
  ldap_tls_skip_verify: { env: 'SEMAPHORE_LDAP_TLS_SKIP_VERIFY', json: 'ldap_tls_skip_verify', read: flag() },
  ldap_binddn: { env: 'SEMAPHORE_LDAP_BIND_DN', json: 'ldap_binddn', read: text('') },
  ldap_bindpassword: { env: 'SEMAPHORE_LDAP_BIND_PASSWORD', json: 'ldap_bindpassword', read: text('') },
  ldap_searchdn: { env: 'SEMAPHORE_LDAP_SEARCH_DN', json: 'ldap_searchdn', read: text('') },
  ldap_searchfilter: { env: 'SEMAPHORE_LDAP_SEARCH_FILTER', json: 'ldap_searchfilter', read: text('(uid=%s)') },
  ldap_mapping_dn: { env: 'SEMAPHORE_LDAP_MAPPING_DN', json: 'ldap_mappings.dn', read: text('dn') },
  ldap_mapping_mail: { env: 'SEMAPHORE_LDAP_MAPPING_MAIL', json: 'ldap_mappings.mail', read: text('mail') },
  ldap_mapping_uid: { env: 'SEMAPHORE_LDAP_MAPPING_UID', json: 'ldap_mappings.uid', read: text('uid') },
  ldap_mapping_cn: { env: 'SEMAPHORE_LDAP_MAPPING_CN', json: 'ldap_mappings.cn', read: text('cn') },
  ldap_mapping_groups: { env: 'SEMAPHORE_LDAP_MAPPING_GROUPS', json: 'ldap_mappings.groups', read: text('memberOf') },
  ldap_group_searchdn: { env: 'SEMAPHORE_LDAP_GROUP_SEARCH_DN', json: 'ldap_group_searchdn', read: text('') },
  ldap_group_searchfilter: { env: 'SEMAPHORE_LDAP_GROUP_SEARCH_FILTER', json: 'ldap_group_searchfilter', read: text('(member=%s)') },
  oidc_providers: { env: 'SEMAPHORE_OIDC_PROVIDERS', json: 'oidc_providers', read: jsonObject() },
  external_auth_email_matching: { env: 'SEMAPHORE_EXTERNAL_AUTH_EMAIL_MATCHING', json: 'external_auth_email_matching', read: oneOf([...EMAIL_MATCHING], 'never') },
  group_mappings: { env: 'SEMAPHORE_GROUP_MAPPINGS', json: 'group_mappings', read: jsonList() },
  jwt_auth_enabled: { env: 'SEMAPHORE_JWT_AUTH_ENABLED', json: 'auth.jwt.enabled', read: flag() },
  jwt_auth_header: { env: 'SEMAPHORE_JWT_AUTH_HEADER', json: 'auth.jwt.header', read: text('') },
  jwt_auth_jwks_url: { env: 'SEMAPHORE_JWT_AUTH_JWKS_URL', json: 'auth.jwt.jwks_url', read: url() },
  jwt_auth_audience: { env: 'SEMAPHORE_JWT_AUTH_AUDIENCE', json: 'auth.jwt.audience', read: text('') },
  jwt_auth_issuer: { env: 'SEMAPHORE_JWT_AUTH_ISSUER', json: 'auth.jwt.issuer', read: text('') },
  jwt_auth_email_claim: { env: 'SEMAPHORE_JWT_AUTH_EMAIL_CLAIM', json: 'auth.jwt.email_claim', read: text('email') },
  jwt_auth_name_claim: { env: 'SEMAPHORE_JWT_AUTH_NAME_CLAIM', json: 'auth.jwt.name_claim', read: text('name') },
  jwt_auth_username_claim: { env: 'SEMAPHORE_JWT_AUTH_USERNAME_CLAIM', json: 'auth.jwt.username_claim', read: text('email') },
  jwt_auth_groups_claim: { env: 'SEMAPHORE_JWT_AUTH_GROUPS_CLAIM', json: 'auth.jwt.groups_claim', read: text('groups') },
  jwt_enabled: { env: 'SEMAPHORE_JWT_ENABLED', json: 'jwt.enabled', read: flag() },
  jwt_issuer: { env: 'SEMAPHORE_JWT_ISSUER', json: 'jwt.issuer', read: text('') },
  jwt_default_ttl: { env: 'SEMAPHORE_JWT_DEFAULT_TTL', json: 'jwt.default_ttl', read: duration(3600) },
  jwt_max_ttl: { env: 'SEMAPHORE_JWT_MAX_TTL', json: 'jwt.max_ttl', read: duration(86_400) },
  audit_enabled: { env: 'SIGNALBOX_AUDIT_ENABLED', json: 'audit.enabled', read: flagDefault(true) },
  audit_retention_days: { env: 'SIGNALBOX_AUDIT_RETENTION_DAYS', json: 'audit.retention_days', read: count(365) },
  event_log_enabled: { env: 'SEMAPHORE_EVENT_LOG_ENABLED', json: 'log.events.enabled', read: flag() },
  event_log_format: { env: 'SEMAPHORE_EVENT_LOG_FORMAT', json: 'log.events.format', read: oneOf(['json', 'raw'], 'json') },
  event_log_logger: { env: 'SEMAPHORE_EVENT_LOG_LOGGER', json: 'log.events.logger', read: jsonObject() },
  syslog_enabled: { env: 'SEMAPHORE_SYSLOG_ENABLED', json: 'syslog.enabled', read: flag() },
  syslog_network: { env: 'SEMAPHORE_SYSLOG_NETWORK', json: 'syslog.network', read: oneOf(['udp', 'tcp', 'tls'], 'udp') },
  syslog_address: { env: 'SEMAPHORE_SYSLOG_ADDRESS', json: 'syslog.address', read: text('') },
  syslog_tag: { env: 'SEMAPHORE_SYSLOG_TAG', json: 'syslog.tag', read: text('signalbox') },
  syslog_format: { env: 'SEMAPHORE_SYSLOG_FORMAT', json: 'syslog.format', read: oneOf(['rfc5424'], 'rfc5424') },
  syslog_tls_ca: { env: 'SEMAPHORE_SYSLOG_TLS_CA', json: 'syslog.tls_ca', read: text('') },
  syslog_tls_skip_verify: { env: 'SEMAPHORE_SYSLOG_TLS_SKIP_VERIFY', json: 'syslog.tls_skip_verify', read: flag() },
  audit_webhook_enabled: { env: 'SEMAPHORE_AUDIT_WEBHOOK_ENABLED', json: 'log.audit_webhook.enabled', read: flag() },
  audit_webhook_url: { env: 'SEMAPHORE_AUDIT_WEBHOOK_URL', json: 'log.audit_webhook.url', read: url() },
  audit_webhook_format: { env: 'SEMAPHORE_AUDIT_WEBHOOK_FORMAT', json: 'log.audit_webhook.format', read: oneOf(['splunk_hec', 'json'], '') },
  audit_webhook_headers: { env: 'SEMAPHORE_AUDIT_WEBHOOK_HEADERS', json: 'log.audit_webhook.headers', read: jsonObject() },
  secret_sources_env: { env: 'SEMAPHORE_SECRET_SOURCES_ENV', json: 'secret_sources.env', read: stringList() },
  secret_sources_dirs: { env: 'SEMAPHORE_SECRET_SOURCES_DIRS', json: 'secret_sources.dirs', read: stringList() },
  secrets_path: { env: 'SEMAPHORE_SECRETS_PATH', json: 'dirs.secrets_path', read: absolutePath() },
} as const;

/**
 * Reads config.json (when given) and SEMAPHORE_* variables; the environment wins.
 * @example const config = loadConfig(process.env, { configPath: 'config.json' });
 */
export function loadConfig(env: NodeJS.ProcessEnv, options: { configPath?: string } = {}): Config {
  const file = options.configPath ? readConfigFile(options.configPath) : {};
  const value = <K extends keyof typeof SETTINGS>(key: K): ReturnType<(typeof SETTINGS)[K]['read']> => {
    const setting = SETTINGS[key];
    const fromEnv = env[setting.env];
    const raw = fromEnv !== undefined && fromEnv !== '' ? fromEnv : jsonValue(file, setting.json);
    const where = fromEnv !== undefined && fromEnv !== '' ? setting.env : `${setting.json.replace('$db', 'db')} in ${options.configPath}`;
    return setting.read(raw, where) as ReturnType<(typeof SETTINGS)[K]['read']>;
  };
  const where = (key: keyof typeof SETTINGS) => (env[SETTINGS[key].env] ? SETTINGS[key].env : SETTINGS[key].json);
  const dialect = value('dialect') as DbSettings['dialect'];
  const port = value('port') as number;
  return {
    db: {
      dialect,
      host: (value('db_host') as string) || (dialect === 'sqlite' ? './data/signalbox.sqlite' : '127.0.0.1:5432'),
      user: (value('db_user') as string) || undefined,
      password: (value('db_pass') as string) || undefined,
      name: (value('db_name') as string) || (dialect === 'postgres' ? 'signalbox' : undefined),
      options: value('db_options') as Record<string, string>,
    },
    port,
    interface: value('interface') as string,
    tmp_path: value('tmp_path') as string,
    web_host: ((value('web_host') as string) || `http://localhost:${port}`).replace(/\/+$/, ''),
    web_host_configured: Boolean(value('web_host')),
    cookie_hash: value('cookie_hash') as string,
    access_key_encryption: value('access_key_encryption') as string,
    max_parallel_tasks: value('max_parallel_tasks') as number,
    max_task_duration_sec: value('max_task_duration_sec') as number,
    max_tasks_per_template: value('max_tasks_per_template') as number,
    non_admin_can_create_project: value('non_admin_can_create_project') as boolean,
    password_login_disable: value('password_login_disable') as boolean,
    use_remote_runner: value('use_remote_runner') as boolean,
    runner_registration_token: value('runner_registration_token') as string,
    runner_offline_sec: value('runner_offline_sec') as number,
    runner_fail_sec: value('runner_fail_sec') as number,
    runner_poll_hold_ms: value('runner_poll_hold_ms') as number,
    schedule_timezone: value('schedule_timezone') as string,
    global_integration_alias: value('global_integration_alias') as string,
    env_vars: value('env_vars') as Record<string, string>,
    forwarded_env_vars: value('forwarded_env_vars') as string[],
    apps: value('apps') as Record<string, unknown>,
    api_url: (value('api_url') as string).replace(/\/+$/, ''),
    trusted_proxies: value('trusted_proxies') as string[],
    outgoing_addresses: value('outgoing_addresses') as OutgoingAddressPolicy,
    admin: readAdmin(env),
    alerts: readAlerts(value),
    metrics: { enabled: value('metrics_enabled') as boolean, username: value('metrics_username') as string, password: value('metrics_password') as string },
    task_retention_days: value('task_retention_days') as number,
    output_retention_days: value('output_retention_days') as number,
    config_path: options.configPath ?? '',
    process: {
      user: value('process_user') as string,
      uid: value('process_uid') as number | null,
      gid: value('process_gid') as number | null,
      chroot: value('process_chroot') as string,
      uid_pool: value('process_uid_pool') as ProcessSettings['uid_pool'],
    },
    executor: {
      engine: value('executor') as ExecutorSettings['engine'],
      image: value('executor_image') as string,
      pull: value('executor_pull') as ExecutorSettings['pull'],
    },
    totp: { enabled: value('totp_enabled') as boolean, allow_recovery: value('totp_allow_recovery') as boolean, issuer: value('totp_issuer') as string },
    ldap: readLdap((key) => value(key) as string & boolean),
    oidc_providers: readOidcProviders(value('oidc_providers') as Record<string, unknown>, where('oidc_providers')),
    external_auth_email_matching: value('external_auth_email_matching') as EmailMatching,
    group_mappings: readGroupMappings(value('group_mappings') as unknown[], where('group_mappings')),
    jwt: readJwt(value),
    proxy_auth: readProxyAuth(value),
    audit: readAudit(value, where),
    secret_sources: readSecretSources(value, where),
  };
}

function readProxyAuth(value: Read): ProxyAuthConfig {
  const text = (key: keyof typeof SETTINGS) => (value(key) as string).trim();
  const auth: ProxyAuthConfig = {
    enabled: value('jwt_auth_enabled') as boolean, header: text('jwt_auth_header'), jwks_url: text('jwt_auth_jwks_url'),
    audience: text('jwt_auth_audience'), issuer: text('jwt_auth_issuer'), email_claim: text('jwt_auth_email_claim') || 'email',
    name_claim: text('jwt_auth_name_claim') || 'name', username_claim: text('jwt_auth_username_claim') || 'email',
    groups_claim: text('jwt_auth_groups_claim') || 'groups',
  };
  if (auth.enabled && !auth.jwks_url) throw new ConfigError('auth.jwt.jwks_url: required when auth.jwt.enabled is on (SEMAPHORE_JWT_AUTH_JWKS_URL)');
  if (auth.header && !/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(auth.header)) throw new ConfigError(`auth.jwt.header: "${auth.header}" is not an HTTP header name`);
  return auth;
}

function readJwt(value: Read): JwtSettings {
  const jwt: JwtSettings = {
    enabled: value('jwt_enabled') as boolean, issuer: value('jwt_issuer') as string,
    default_ttl: value('jwt_default_ttl') as number, max_ttl: value('jwt_max_ttl') as number,
  };
  if (jwt.default_ttl > jwt.max_ttl) throw new ConfigError(`jwt.default_ttl: ${jwt.default_ttl}s is longer than jwt.max_ttl (${jwt.max_ttl}s); shorten it or raise jwt.max_ttl`);
  return jwt;
}

function readAudit(value: Read, where: (key: keyof typeof SETTINGS) => string): AuditSettings {
  const logger = value('event_log_logger') as Record<string, unknown>;
  const number = (name: string, fallback: number) => {
    const raw = logger[name];
    if (raw === undefined || raw === null || raw === '') return fallback;
    if (typeof raw !== 'number' && !/^\d+(\.\d+)?$/.test(String(raw))) throw new ConfigError(`${where('event_log_logger')}: ${name} must be a number`);
    return Number(raw);
  };
  const file: AuditSettings['file'] = {
    enabled: value('event_log_enabled') as boolean, format: value('event_log_format') as 'json' | 'raw',
    filename: typeof logger.filename === 'string' && logger.filename ? logger.filename : './events.log',
    maxsize: number('maxsize', 100), maxbackups: number('maxbackups', 0), compress: logger.compress === true || logger.compress === 'true',
  };
  const syslog: AuditSettings['syslog'] = {
    enabled: value('syslog_enabled') as boolean, network: value('syslog_network') as 'udp', address: value('syslog_address') as string,
    tag: value('syslog_tag') as string, tls_ca: value('syslog_tls_ca') as string, tls_skip_verify: value('syslog_tls_skip_verify') as boolean,
  };
  if (syslog.enabled && !/^[^\s]+:\d+$/.test(syslog.address)) throw new ConfigError(`${SETTINGS.syslog_address.env} (${SETTINGS.syslog_address.json}): required when syslog is enabled; use host:port`);
  const headers = value('audit_webhook_headers') as Record<string, unknown>;
  if (!Object.values(headers).every((v) => typeof v === 'string')) throw new ConfigError(`${where('audit_webhook_headers')}: use a JSON object of strings`);
  const webhook: AuditSettings['webhook'] = {
    enabled: value('audit_webhook_enabled') as boolean, url: value('audit_webhook_url') as string,
    format: value('audit_webhook_format') === 'splunk_hec' ? 'splunk_hec' : '', headers: headers as Record<string, string>,
  };
  if (webhook.enabled && !webhook.url) throw new ConfigError(`${SETTINGS.audit_webhook_url.env} (${SETTINGS.audit_webhook_url.json}): required when the audit webhook is enabled`);
  return { enabled: value('audit_enabled') as boolean, retention_days: value('audit_retention_days') as number, file, syslog, webhook };
}

type Read = (key: keyof typeof SETTINGS) => unknown;

/** The allow-list of env/file key sources; Semaphore's `dirs.secrets_path` counts as one more directory. */
function readSecretSources(value: Read, where: (key: keyof typeof SETTINGS) => string): SecretSourcesPolicy {
  const dirs = value('secret_sources_dirs') as string[];
  const bad = dirs.find((dir) => !dir.startsWith('/') || /^\/+$/.test(dir));
  if (bad) throw new ConfigError(`${where('secret_sources_dirs')}: "${bad}" is not allowed; use absolute directories other than /`);
  const secretsPath = value('secrets_path') as string;
  return { env: value('secret_sources_env') as string[], dirs: secretsPath ? [...dirs, secretsPath] : dirs };
}

function readAlerts(value: Read): AlertSettings {
  const on = (key: keyof typeof SETTINGS) => value(key) as boolean;
  const str = (key: keyof typeof SETTINGS) => value(key) as string;
  return {
    email: {
      enabled: on('email_alert'), sender: str('email_sender'), host: str('email_host'), port: value('email_port') as number,
      username: str('email_username'), password: str('email_password'), secure: on('email_secure'), tls: on('email_tls'),
    },
    telegram: { enabled: on('telegram_alert'), chat: str('telegram_chat'), token: str('telegram_token'), api_url: str('telegram_api_url') || 'https://api.telegram.org' },
    slack: { enabled: on('slack_alert'), url: str('slack_url') },
    rocketchat: { enabled: on('rocketchat_alert'), url: str('rocketchat_url') },
    microsoft_teams: { enabled: on('microsoft_teams_alert'), url: str('microsoft_teams_url') },
    dingtalk: { enabled: on('dingtalk_alert'), url: str('dingtalk_url') },
    gotify: { enabled: on('gotify_alert'), url: str('gotify_url'), token: str('gotify_token') },
    webhook: { enabled: on('webhook_alert'), url: str('webhook_url') },
  };
}

function readLdap(value: (key: `ldap_${string}` & keyof typeof SETTINGS) => string & boolean): LdapConfig {
  const ldap: LdapConfig = {
    enable: value('ldap_enable'), server: value('ldap_server'), needtls: value('ldap_needtls'), starttls: value('ldap_starttls'),
    tls_skip_verify: value('ldap_tls_skip_verify'), binddn: value('ldap_binddn'), bindpassword: value('ldap_bindpassword'),
    searchdn: value('ldap_searchdn'), searchfilter: value('ldap_searchfilter'),
    mappings: { dn: value('ldap_mapping_dn'), mail: value('ldap_mapping_mail'), uid: value('ldap_mapping_uid'), cn: value('ldap_mapping_cn'), groups: value('ldap_mapping_groups') },
    group_searchdn: value('ldap_group_searchdn'), group_searchfilter: value('ldap_group_searchfilter'),
  };
  if (ldap.enable && !ldap.server) throw new ConfigError('ldap_server: required when ldap_enable is on (SEMAPHORE_LDAP_SERVER, host:port)');
  if (ldap.enable && !ldap.searchfilter.includes('%s')) throw new ConfigError('ldap_searchfilter: must contain %s, where the login goes');
  return ldap;
}

function readAdmin(env: NodeJS.ProcessEnv): Config['admin'] {
  const login = env.SEMAPHORE_ADMIN;
  if (!login) return null;
  const password = env.SEMAPHORE_ADMIN_PASSWORD;
  if (!password) throw new ConfigError('SEMAPHORE_ADMIN_PASSWORD: required when SEMAPHORE_ADMIN is set');
  return {
    login,
    password,
    name: env.SEMAPHORE_ADMIN_NAME || login,
    email: env.SEMAPHORE_ADMIN_EMAIL || `${login}@localhost`,
  };
}

function readConfigFile(path: string): Source {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    throw new ConfigError(`--config: cannot read ${path}`);
  }
  try {
    const parsed = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Source;
  } catch { /* reported below */ }
  throw new ConfigError(`--config: ${path} is not a JSON object`);
}

/** `$db.x` reads `x` from the section named by `dialect` (Semaphore nests `sqlite`/`postgres`). */
function jsonValue(file: Source, path: string): unknown {
  if (path.startsWith('$db.')) {
    const section = file[String(file.dialect ?? 'sqlite')];
    return section && typeof section === 'object' ? (section as Source)[path.slice(4)] : undefined;
  }
  return path.split('.').reduce<unknown>((node, part) => (node && typeof node === 'object' ? (node as Source)[part] : undefined), file);
}
