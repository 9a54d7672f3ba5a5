/** A setting that cannot be used; start-up stops with its one-line message. */
export class ConfigError extends Error {}
