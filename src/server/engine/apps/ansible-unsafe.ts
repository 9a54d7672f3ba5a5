/**
 * Ansible's own mark for text that is data, never a template: in a JSON vars file a string
 * becomes `{"__ansible_unsafe": "…"}` (`!unsafe` in YAML). The play still sees a plain string;
 * Jinja in it (`{{ lookup('pipe', 'id') }}`) is printed as written, not run.
 * @example markUnsafe({ tags: ['{{ x }}'] }) // { tags: [{ __ansible_unsafe: '{{ x }}' }] }
 */
export function markUnsafe(value: unknown): unknown {
  if (typeof value === 'string') return { __ansible_unsafe: value };
  if (Array.isArray(value)) return value.map(markUnsafe);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, markUnsafe(inner)]));
  return value;
}

/**
 * An `-e @file` JSON vars file: the variables named in `untrusted`, and `semaphore_vars` (the
 * task's message, commit, versions and user name — written by people and webhooks, never
 * meant as templates), are marked unsafe; the rest (the template editors' own values) stay
 * templates, as they always were.
 * @example ansibleVarsFile({ version: '{{ x }}', region: 'eu' }, new Set(['version']))
 */
export function ansibleVarsFile(vars: Record<string, unknown>, untrusted: ReadonlySet<string>): string {
  const marked = Object.entries(vars).map(([name, value]) => [name, untrusted.has(name) || name === 'semaphore_vars' ? markUnsafe(value) : value]);
  return JSON.stringify(Object.fromEntries(marked));
}
