import { describe, expect, it } from 'vitest';
import { fromRows, jsonObjectError, toRows } from '../../src/islands/json-table.ts';

describe('JSON ⇄ table model of the variable group editor', () => {
  it('turns a flat object into rows and back, indented by two spaces', () => {
    expect(toRows('{"a": "1", "b": 2, "c": true, "d": null}')).toEqual({
      kind: 'rows', rows: [{ key: 'a', value: '1' }, { key: 'b', value: '2' }, { key: 'c', value: 'true' }, { key: 'd', value: '' }],
    });
    expect(fromRows([{ key: 'a', value: '1' }, { key: ' ', value: 'dropped' }, { key: ' b ', value: 'x' }])).toBe('{\n  "a": "1",\n  "b": "x"\n}');
    expect(toRows('')).toEqual({ kind: 'rows', rows: [] });
  });

  it('keeps nested structures and arrays in JSON ("too complex")', () => {
    expect(toRows('{"a": {"b": 1}}')).toEqual({ kind: 'complex' });
    expect(toRows('{"a": [1]}')).toEqual({ kind: 'complex' });
    expect(toRows('[1, 2]')).toEqual({ kind: 'complex' });
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
