// The copy a marked in-process call hands over (src/server/http/object-handover.ts) must be what
// JSON.parse of the body would have been, for every kind of value a route could answer with.
import { describe, expect, it } from 'vitest';
import { Hono } from 'hono';
import { handedOver, handoverEnv, handOverObjects, jsonCopy } from '../../../src/server/http/object-handover.ts';

const viaText = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;

describe('jsonCopy', () => {
  it.each([
    ['a Date', { at: new Date(Date.UTC(2026, 10, 26, 12)) }],
    ['undefined fields and array slots', { a: undefined, b: [1, undefined, () => 1, Symbol('s')], c: () => 1 }],
    ['non-finite numbers', { nan: NaN, inf: -Infinity, zero: -0, n: 1.5 }],
    ['boxed primitives', { s: new String('x'), n: new Number(2), b: new Boolean(false) }],
    ['toJSON with its key', { outer: { toJSON: (key: string) => `key ${key}` }, list: [{ toJSON: (key: string) => key }] }],
    ['a Map, a Set, a Buffer, a typed array', { m: new Map([[1, 2]]), s: new Set([1]), buf: Buffer.from('hi'), u8: new Uint8Array([1, 2]) }],
    ['a __proto__ key as JSON.parse makes it', JSON.parse('{"__proto__": {"admin": true}, "x": 1}') as unknown],
    ['a class instance (own enumerable fields only)', new (class Row { id = 3; get hidden() { return 1; } })()],
    ['nulls, strings, nesting', { a: null, s: 'é\u2028"', deep: [[{ x: [null] }]] }],
  ])('%s', (_, value) => {
    expect(jsonCopy(value, '')).toStrictEqual(viaText(value));
  });

  it('leaves out what JSON leaves out at the top level, and throws where JSON.stringify throws', () => {
    expect(jsonCopy(undefined, '')).toBeUndefined();
    expect(() => jsonCopy({ n: 1n }, '')).toThrow(TypeError);
    expect(() => JSON.stringify({ n: 1n })).toThrow(TypeError);
  });

  it('shares no object with what it copied', () => {
    const kept = { list: [{ name: 'a' }] };
    const copy = jsonCopy(kept, '') as typeof kept;
    copy.list[0]!.name = 'changed';
    copy.list.push({ name: 'b' });
    expect(kept).toStrictEqual({ list: [{ name: 'a' }] });
  });

  it('keeps a __proto__ key an own property instead of setting the prototype', () => {
    const copy = jsonCopy(JSON.parse('{"__proto__": {"admin": true}}'), '') as Record<string, unknown>;
    expect(Object.hasOwn(copy, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect((copy as { admin?: boolean }).admin).toBeUndefined();
  });
});

describe('handOverObjects', () => {
  const app = () => {
    const api = new Hono();
    api.use('*', handOverObjects());
    // a middleware that assigns over the answer, as Hono's error path and our compression can
    api.use('*', async (c, next) => {
      await next();
      if (c.req.query('rewrap')) c.res = new Response(c.res.body, c.res);
    });
    api.get('/ok', (c) => {
      c.header('x-total-count', '7');
      return c.json({ at: new Date(0), gone: undefined }, 201);
    });
    api.get('/typed', (c) => c.json({ a: 1 }, 200, { 'Content-Type': 'application/problem+json' }));
    api.get('/text', (c) => c.text('plain'));
    api.get('/fails', () => { throw new Error('boom'); });
    api.get('/replaced', async (c, next) => { c.json({ first: true }); await next(); return c.body('other', 200); });
    api.onError((_, c) => c.json({ error: 'internal server error' }, 500));
    return api;
  };

  it('answers a marked call bodiless with status and headers, and hands the JSON-equal object over', async () => {
    const env = handoverEnv({});
    const res = await app().request('/ok', {}, env);
    expect([res.status, res.body, res.headers.get('content-type'), res.headers.get('x-total-count')]).toStrictEqual([201, null, 'application/json', '7']);
    expect(handedOver(env, res)).toStrictEqual({ value: { at: '1970-01-01T00:00:00.000Z' } });
  });

  it('answers an unmarked call with the JSON body, as before', async () => {
    const res = await app().request('/ok');
    expect(await res.text()).toBe('{"at":"1970-01-01T00:00:00.000Z"}');
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('keeps a route\'s own content type', async () => {
    const env = handoverEnv({});
    const res = await app().request('/typed', {}, env);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(handedOver(env, res)?.value).toStrictEqual({ a: 1 });
  });

  it('hands over error bodies the same way', async () => {
    const env = handoverEnv({});
    const res = await app().request('/fails', {}, env);
    expect(res.status).toBe(500);
    expect(handedOver(env, res)?.value).toStrictEqual({ error: 'internal server error' });
  });

  it('follows an answer a later middleware copied into a new response', async () => {
    const env = handoverEnv({});
    const res = await app().request('/ok?rewrap=1', {}, env);
    expect([res.status, res.body, res.headers.get('x-total-count')]).toStrictEqual([201, null, '7']);
    expect(handedOver(env, res)?.value).toStrictEqual({ at: '1970-01-01T00:00:00.000Z' });
  });

  it('hands nothing over when the answer is not the one c.json made: its body is read as usual', async () => {
    for (const path of ['/text', '/replaced']) {
      const env = handoverEnv({});
      const res = await app().request(path, {}, env);
      expect(handedOver(env, res), path).toBeUndefined();
      expect(res.body, path).not.toBeNull();
    }
  });
});
