import { describe, expect, it } from 'vitest';
import { fromRows, jsonObjectError, retype, toRows, type JsonRow } from '../../src/islands/json-table.ts';

const rowsOf = (text: string): JsonRow[] => {
  const result = toRows(text);
  if (result.kind !== 'rows') throw new Error(`not rows: ${result.kind}`);
  return result.rows;
};

describe('JSON ⇄ table model of the variable group editor', () => {
  it('turns a flat object into typed rows and back, indented by two spaces', () => {
    expect(rowsOf('{"a": "1", "b": 2, "c": true, "d": null}')).toEqual([
      { key: 'a', type: 'string', value: '1' }, { key: 'b', type: 'number', value: '2' },
      { key: 'c', type: 'boolean', value: 'true' }, { key: 'd', type: 'null', value: '' },
    ]);
    expect(fromRows([{ key: 'a', type: 'string', value: '1' }, { key: ' ', type: 'string', value: 'dropped' }, { key: ' b ', type: 'number', value: '2' }]))
      .toBe('{\n  "a": "1",\n  "b": 2\n}');
    expect(toRows('')).toEqual({ kind: 'rows', rows: [] });
  });

  it('gives back the same JSON value for every type, nested values included', () => {
    const value = { debug: true, off: false, count: 3, ratio: -1.5e-3, nothing: null, text: 'false', empty: '', nested: { a: [1, { b: null }] }, list: [] };
    expect(JSON.parse(fromRows(rowsOf(JSON.stringify(value)))!)).toEqual(value);
    // a key named like Object.prototype's accessor stays an ordinary key
    expect(JSON.parse(fromRows(rowsOf('{"__proto__": {"polluted": 1}}'))!)).toEqual(JSON.parse('{"__proto__": {"polluted": 1}}'));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('keeps nested objects and arrays as read-only JSON cells; a non-object is "too complex"', () => {
    expect(rowsOf('{"a": {"b": 1}, "c": [1]}')).toEqual([{ key: 'a', type: 'json', value: '{"b":1}' }, { key: 'c', type: 'json', value: '[1]' }]);
    expect(toRows('[1, 2]')).toEqual({ kind: 'complex' });
    expect(toRows('"text"')).toEqual({ kind: 'complex' });
  });

  it('refuses a number cell that holds no number, and converts a value to another type', () => {
    expect(fromRows([{ key: 'n', type: 'number', value: '3x' }])).toBeNull();
    expect(fromRows([{ key: 'n', type: 'number', value: ' 1e3 ' }])).toBe('{\n  "n": 1000\n}');
    expect(retype({ key: 'k', type: 'string', value: 'true' }, 'boolean')).toEqual({ key: 'k', type: 'boolean', value: 'true' });
    expect(retype({ key: 'k', type: 'string', value: 'yes' }, 'boolean')).toEqual({ key: 'k', type: 'boolean', value: 'false' });
    expect(retype({ key: 'k', type: 'string', value: '42' }, 'number')).toEqual({ key: 'k', type: 'number', value: '42' });
    // kept as typed: the cell says it is no number, it does not become 0
    expect(retype({ key: 'k', type: 'string', value: 'abc' }, 'number')).toEqual({ key: 'k', type: 'number', value: 'abc' });
    expect(retype({ key: 'k', type: 'number', value: '7' }, 'null')).toEqual({ key: 'k', type: 'null', value: '' });
    expect(retype({ key: 'k', type: 'boolean', value: 'false' }, 'string')).toEqual({ key: 'k', type: 'string', value: 'false' });
  });

  it('reports the parse error of invalid JSON', () => {
    const result = toRows('{"a": ');
    expect(result.kind).toBe('invalid');
    expect(result.kind === 'invalid' && result.error).toMatch(/JSON/);
    expect(jsonObjectError('{"a": ', 'not an object')).not.toBe('');
    expect(jsonObjectError('[1]', 'not an object')).toBe('not an object');
    expect(jsonObjectError('{"a": 1}', 'not an object')).toBe('');
    expect(jsonObjectError('  ', 'not an object')).toBe('');
  });
});
