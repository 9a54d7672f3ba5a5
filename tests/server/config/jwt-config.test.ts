import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../../../src/server/config/config.ts';
import { parseDuration } from '../../../src/server/lib/duration.ts';

describe('jwt settings (config.json `jwt` section and SEMAPHORE_JWT_*)', () => {
  it('are off by default, with Semaphore\'s 1h default and 24h maximum', () => {
    expect(loadConfig({}).jwt).toEqual({ enabled: false, issuer: '', default_ttl: 3600, max_ttl: 86400 });
  });

  it('read config.json with Go-style durations, and the environment wins', () => {
    const dir = mkdtempSync(join(tmpdir(), 'signalbox-jwt-config-'));
    const path = join(dir, 'config.json');
    writeFileSync(path, JSON.stringify({ jwt: { enabled: true, issuer: 'https://semaphore.example.com', default_ttl: '30m', max_ttl: '2h' } }));
    expect(loadConfig({}, { configPath: path }).jwt).toEqual({ enabled: true, issuer: 'https://semaphore.example.com', default_ttl: 1800, max_ttl: 7200 });
    expect(loadConfig({ SEMAPHORE_JWT_ENABLED: 'false', SEMAPHORE_JWT_MAX_TTL: '1h30m' }, { configPath: path }).jwt).toMatchObject({ enabled: false, max_ttl: 5400 });
  });

  it('refuse what is not a duration, and a default longer than the maximum', () => {
    expect(() => loadConfig({ SEMAPHORE_JWT_DEFAULT_TTL: 'soon' })).toThrow(ConfigError);
    expect(() => loadConfig({ SEMAPHORE_JWT_DEFAULT_TTL: 'soon' })).toThrow('SEMAPHORE_JWT_DEFAULT_TTL: "soon" is not allowed; use a duration such as 30m, 1h or 1h30m');
    expect(() => loadConfig({ SEMAPHORE_JWT_DEFAULT_TTL: '2h', SEMAPHORE_JWT_MAX_TTL: '1h' })).toThrow('jwt.default_ttl: 7200s is longer than jwt.max_ttl (3600s)');
  });

  it('durations: s, m, h and their sums; a bare number is seconds', () => {
    expect([parseDuration('45s'), parseDuration('10m'), parseDuration('1h30m'), parseDuration('90'), parseDuration('1d'), parseDuration('')]).toEqual([45, 600, 5400, 90, null, null]);
  });
});
