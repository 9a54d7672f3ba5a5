// How ansible-core reads a `--limit` value: inventory/manager.py `split_host_pattern` (which
// asks parsing/utils/addresses.py `parse_address` whether the value is one address) and
// `subset` (which reads every part starting with `@` as a file of host names). Ported, not
// approximated: Python's whitespace, `$` and `.` differ from JavaScript's.

/** What Python's `str.strip()` and `re`'s `\s` count as whitespace (`str.isspace()`); JavaScript's `\s` differs (no \x1c-\x1f, no \x85; has \ufeff). */
const PY_SPACE = '\\t\\n\\v\\f\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const PY_STRIP = new RegExp(`^[${PY_SPACE}]+|[${PY_SPACE}]+$`, 'gu');
/** Without a comma: runs of anything but whitespace, `:` and brackets, or whole `[...]` expressions. */
const COLON_OR_SPACE_SEPARATED = new RegExp(`(?:[^${PY_SPACE}:\\[\\]]|\\[[^\\]]*\\])+`, 'gu');

// parse_address(allow_ranges=True). Python's `$` also matches before a final newline: `\n?$`.
const NUMERIC_RANGE = String.raw`\[(?:[0-9]+:[0-9]+)(?::[0-9]+)?\]`;
const HEX_RANGE = String.raw`\[(?:[0-9a-f]+:[0-9a-f]+)(?::[0-9]+)?\]`;
const ALPHANUMERIC_RANGE = String.raw`\[(?:[a-z]:[a-z]|[0-9]+:[0-9]+)(?::[0-9]+)?\]`;
const IPV6_PART = `(?:[0-9a-f]{1,4}|${HEX_RANGE})`;
const IPV4_PART = `(?:[01]?[0-9]{1,2}|2[0-4][0-9]|25[0-5]|${NUMERIC_RANGE})`;
/** Python's Unicode `\w`: letters, numbers and `_`. */
const WORD = String.raw`\p{L}\p{N}_`;
const LABEL = `(?:[${WORD}]|${ALPHANUMERIC_RANGE})(?:[${WORD}-]|${ALPHANUMERIC_RANGE})*(?<![_-])`;
const BRACKETED_HOSTPORT = /^\[([^\n]+)\]:([0-9]+)\n?$/u;
const HOSTPORT = /^((?:[^:[\]]|\[[^\]]*\])*):([0-9]+)\n?$/u;
const I6 = IPV6_PART;
const ADDRESS_FORMS = [
  new RegExp(`^(?:${IPV4_PART}\\.){3}${IPV4_PART}\\n?$`, 'iu'),
  // ansible writes `^a|b|…|m$`: every form must start the value, only the last must end it
  new RegExp(`^(?:${[
    `(?:${I6}:){7}${I6}`, `(?:${I6}:){1,6}:`, `(?:${I6}:)(?::${I6}){1,6}`, `(?:${I6}:){2}(?::${I6}){1,5}`,
    `(?:${I6}:){3}(?::${I6}){1,4}`, `(?:${I6}:){4}(?::${I6}){1,3}`, `(?:${I6}:){5}(?::${I6}){1,2}`,
    `(?:${I6}:){6}(?::${I6})`, `:(?::${I6}){1,6}`, `${I6}?::`,
    `(?:0:){6}(?:${I6}\\.){3}${I6}`, `::(?:ffff:)?(?:${I6}\\.){3}${I6}`, `(?:0:){5}ffff:(?:${I6}\\.){3}${I6}\\n?$`,
  ].join('|')})`, 'iu'),
  new RegExp(`^${LABEL}(?:\\.${LABEL})*\\n?$`, 'iu'),
];

/** Whether ansible's parse_address (ranges allowed) takes the whole value as one host, with or without a port. */
function isOneAddress(value: string): boolean {
  let host = value;
  // both are tried in turn, as ansible's loop does (`continue`, not `break`)
  for (const form of [BRACKETED_HOSTPORT, HOSTPORT]) {
    const m = form.exec(host);
    if (m) host = m[1]!;
  }
  return ADDRESS_FORMS.some((form) => form.test(host));
}

function pyStrip(value: string): string {
  return value.replace(PY_STRIP, '');
}

/**
 * The patterns ansible makes of one `--limit` value.
 * @example splitHostPattern('web:@/etc/passwd') // ['web', '@/etc/passwd']
 * @example splitHostPattern('web, db:@x') // ['web', 'db:@x']
 */
export function splitHostPattern(pattern: string): string[] {
  const parts = pattern.includes(',') ? pattern.split(',') : isOneAddress(pattern) ? [pattern] : pattern.match(COLON_OR_SPACE_SEPARATED) ?? [];
  return parts.map(pyStrip).filter(Boolean);
}

/**
 * The parts of a `--limit` value that ansible-playbook opens as files (`@path`).
 * @example filesReadByLimit('localhost @/etc/hostname') // ['/etc/hostname']
 */
export function filesReadByLimit(pattern: string): string[] {
  return splitHostPattern(pattern).filter((part) => part.startsWith('@')).map((part) => part.slice(1));
}

/**
 * The one `--limit` value a task's list of host patterns becomes on ansible-playbook's command line.
 * @example limitArgument(['web1', 'db']) // 'web1,db'
 */
export function limitArgument(patterns: string[]): string {
  return patterns.join(',');
}
