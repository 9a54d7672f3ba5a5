// How one raw setting (an environment variable's text or a config.json value) is read: each
// reader checks and converts it, or throws a ConfigError naming where it came from.
import { ConfigError } from './config-error.ts';
import { parseDuration } from '../lib/duration.ts';
import { canonicalTimeZone } from '../lib/time-zone.ts';
import { trustedProxyList } from '../lib/client-facts.ts';
import { imageReferenceProblem } from '../lib/image-reference.ts';

export type Reader = (raw: unknown, where: string) => unknown;

export function text(fallback: string): Reader {
  return (raw) => (raw === undefined || raw === null ? fallback : String(raw));
}

export function oneOf(allowed: string[], fallback: string): Reader {
  return (raw, where) => {
    if (raw === undefined || raw === null || raw === '') return fallback;
    const v = String(raw).toLowerCase();
    if (!allowed.includes(v)) throw new ConfigError(`${where}: "${raw}" is not allowed; use one of ${allowed.join(', ')}`);
    return v;
  };
}

export function port(fallback: number): Reader {
  return (raw, where) => {
    if (raw === undefined || raw === null || raw === '') return fallback;
    const v = String(raw).replace(/^:/, '');
    const n = Number(v);
    if (!/^\d+$/.test(v) || n < 1 || n > 65535) throw new ConfigError(`${where}: "${raw}" is not a port; use 1-65535, optionally with a leading ":"`);
    return n;
  };
}

export function count(fallback: number): Reader {
  return (raw, where) => {
    if (raw === undefined || raw === null || raw === '') return fallback;
    const v = String(raw);
    if (!/^\d+$/.test(v)) throw new ConfigError(`${where}: "${raw}" is not allowed; use a whole number 0 or greater`);
    return Number(v);
  };
}

export function optionalId(): Reader {
  return (raw, where) => {
    if (raw === undefined || raw === null || raw === '') return null;
    const v = String(raw);
    if (!/^\d+$/.test(v) || Number(v) > 2 ** 31 - 1) throw new ConfigError(`${where}: "${raw}" is not allowed; use a numeric user or group id`);
    return Number(v);
  };
}

/** An inclusive range of user ids, `first-last` (never 0: tasks never run as root); null when empty. */
export function uidRange(): Reader {
  return (raw, where) => {
    if (raw === undefined || raw === null || raw === '') return null;
    const m = /^\s*(\d{1,10})\s*-\s*(\d{1,10})\s*$/.exec(String(raw));
    const [first, last] = m ? [Number(m[1]), Number(m[2])] : [NaN, NaN];
    if (!(first >= 1 && first <= last && last < 2 ** 31 - 1)) throw new ConfigError(`${where}: "${raw}" is not allowed; use a range of user ids such as 61000-61099 (first at least 1, last not below first)`);
    return { first, last };
  };
}

/** A container image reference, or '' for none. */
export function imageReference(): Reader {
  return (raw, where) => {
    const v = raw === undefined || raw === null ? '' : String(raw).trim();
    const problem = v ? imageReferenceProblem(v) : null;
    if (problem) throw new ConfigError(`${where}: "${raw}" ${problem}`);
    return v;
  };
}

export function absolutePath(): Reader {
  return (raw, where) => {
    if (raw === undefined || raw === null || raw === '') return '';
    const v = String(raw);
    if (!v.startsWith('/')) throw new ConfigError(`${where}: "${raw}" is not allowed; use an absolute path`);
    return v;
  };
}

/** A Go-style duration (`30m`, `1h`), read as whole seconds, at least one second. */
export function duration(fallback: number): Reader {
  return (raw, where) => {
    if (raw === undefined || raw === null || raw === '') return fallback;
    const seconds = parseDuration(String(raw));
    if (!seconds) throw new ConfigError(`${where}: "${raw}" is not allowed; use a duration such as 30m, 1h or 1h30m`);
    return seconds;
  };
}

export function flag(): Reader {
  return (raw, where) => {
    if (raw === undefined || raw === null || raw === '') return false;
    if (typeof raw === 'boolean') return raw;
    const v = String(raw).toLowerCase();
    if (['1', 'true', 'yes'].includes(v)) return true;
    if (['0', 'false', 'no'].includes(v)) return false;
    throw new ConfigError(`${where}: "${raw}" is not allowed; use true/false, yes/no or 1/0`);
  };
}

export function flagDefault(fallback: boolean): Reader {
  return (raw, where) => (raw === undefined || raw === null || raw === '' ? fallback : flag()(raw, where));
}

export function url(): Reader {
  return (raw, where) => {
    if (raw === undefined || raw === null || raw === '') return '';
    const v = String(raw);
    if (!/^https?:\/\/[^\s/]+/.test(v)) throw new ConfigError(`${where}: "${raw}" is not allowed; use an http:// or https:// URL`);
    return v;
  };
}

export function aesKey(): Reader {
  return (raw, where) => {
    if (raw === undefined || raw === null || raw === '') return '';
    const v = String(raw);
    if (Buffer.from(v, 'base64').length !== 32) throw new ConfigError(`${where}: not allowed; use a base64-encoded 32-byte key (head -c32 /dev/urandom | base64)`);
    return v;
  };
}

export function timezone(): Reader {
  return (raw, where) => {
    if (raw === undefined || raw === null || raw === '') return 'UTC';
    const v = String(raw);
    if (!canonicalTimeZone(v)) throw new ConfigError(`${where}: "${raw}" is not allowed; use an IANA time zone such as UTC or Europe/Berlin`);
    return v;
  };
}

export function jsonObject(): Reader {
  return (raw, where) => {
    if (raw === undefined || raw === null || raw === '') return {};
    const v = typeof raw === 'string' ? safeParse(raw) : raw;
    if (!v || typeof v !== 'object' || Array.isArray(v)) throw new ConfigError(`${where}: not allowed; use a JSON object`);
    return v;
  };
}

export function jsonArray(): Reader {
  return (raw, where) => {
    if (raw === undefined || raw === null || raw === '') return [];
    const v = typeof raw === 'string' ? safeParse(raw) : raw;
    if (!Array.isArray(v) || !v.every((x) => typeof x === 'string')) throw new ConfigError(`${where}: not allowed; use a JSON array of strings`);
    return v;
  };
}

/** Addresses and CIDRs: a JSON array, or one string separated by commas or spaces. */
export function addressList(): Reader {
  return (raw, where) => {
    if (raw === undefined || raw === null || raw === '') return [];
    const list = Array.isArray(raw) ? raw : String(raw).split(/[\s,]+/).filter(Boolean);
    if (!list.every((x) => typeof x === 'string')) throw new ConfigError(`${where}: not allowed; use addresses or CIDRs`);
    try {
      trustedProxyList(list as string[]);
    } catch (err) {
      throw new ConfigError(`${where}: ${(err as Error).message}`);
    }
    return list;
  };
}

/** Names or paths: a JSON array, or one string separated by commas or spaces. */
export function stringList(): Reader {
  return (raw, where) => {
    if (raw === undefined || raw === null || raw === '') return [];
    const list = Array.isArray(raw) ? raw : String(raw).split(/[\s,]+/).filter(Boolean);
    if (!list.every((x) => typeof x === 'string' && x !== '')) throw new ConfigError(`${where}: not allowed; use a list of names`);
    return list;
  };
}

export function jsonList(): Reader {
  return (raw, where) => {
    if (raw === undefined || raw === null || raw === '') return [];
    const v = typeof raw === 'string' ? safeParse(raw) : raw;
    if (!Array.isArray(v)) throw new ConfigError(`${where}: not allowed; use a JSON array`);
    return v;
  };
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
