import type { Selectable } from 'kysely';
import type { IntegrationMatcherTable } from '../db/schema.ts';
import type { Delivery } from './delivery.ts';
import { readJsonPath, stringifyJsonValue } from './json-path.ts';

export type MatcherRow = Selectable<IntegrationMatcherTable>;

/**
 * Checks every matcher (all must hold; no matchers means a match — Semaphore 2.10 never fired
 * an integration without matchers, a bug). Returns the reason of the first failure, or null.
 * @example findMismatch(matchers, delivery) // 'matcher branch did not match' | null
 */
export function findMismatch(matchers: MatcherRow[], delivery: Delivery): string | null {
  for (const matcher of matchers) {
    const actual = readMatchedValue(matcher, delivery);
    if (typeof actual === 'object') return `matcher ${matcher.name} did not match (${actual.problem})`;
    if (!compare(matcher.method, actual, matcher.value)) return `matcher ${matcher.name} did not match`;
  }
  return null;
}

function readMatchedValue(matcher: MatcherRow, delivery: Delivery): string | undefined | { problem: string } {
  if (matcher.match_type === 'header') return delivery.headers.get(matcher.key) ?? undefined;
  if (matcher.match_type !== 'body') return { problem: `unknown match type ${matcher.match_type}` };
  if (matcher.body_data_type === 'string') return delivery.text;
  if (matcher.body_data_type !== 'json') return { problem: `${matcher.body_data_type} bodies are not supported` };
  if (!delivery.jsonValid) return { problem: 'body is not valid JSON' };
  return stringifyJsonValue(readJsonPath(delivery.json, matcher.key));
}

/** An absent value equals nothing, contains nothing, and differs from everything. */
function compare(method: string, actual: string | undefined, expected: string): boolean {
  switch (method) {
    case 'equals': return actual === expected;
    case 'unequals': return actual !== expected;
    case 'contains': return actual !== undefined && actual.includes(expected);
    default: return false;
  }
}
