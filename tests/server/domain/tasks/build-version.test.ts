import { describe, expect, it } from 'vitest';
import { nextBuildVersion } from '../../../../src/server/domain/tasks/build-version.ts';

describe('build version numbering', () => {
  it('starts at start_version and counts up the last number', () => {
    expect(nextBuildVersion('1.0.0', null)).toBe('1.0.0');
    expect(nextBuildVersion('1.0.0', '1.0.0')).toBe('1.0.1');
    expect(nextBuildVersion('1.0.0', '1.0.9')).toBe('1.0.10');
  });

  it('keeps prefix and suffix: v5-beta → v6-beta', () => {
    expect(nextBuildVersion('v5-beta', 'v5-beta')).toBe('v6-beta');
    expect(nextBuildVersion('v5-beta', 'v9-beta')).toBe('v10-beta');
  });

  it('never goes below the start number and restarts when the shape changed', () => {
    expect(nextBuildVersion('2.0.7', '2.0.3')).toBe('2.0.7');
    expect(nextBuildVersion('1.0.0', 'release-x')).toBe('1.0.0');
    expect(nextBuildVersion('1.0.0', '2.0.5')).toBe('1.0.0');
    expect(nextBuildVersion(null, '1.0.0')).toBeNull();
  });
});
