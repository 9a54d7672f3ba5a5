import { describe, expect, it } from 'vitest';
import { classifyRepositoryUrl } from '../../../src/server/domain/repositories/repository-url.ts';

describe('repository URL classification', () => {
  it.each([
    ['/srv/playbooks', 'local'],
    ['file:///srv/repo.git', 'file'],
    ['git://example.com/repo.git', 'git'],
    ['ssh://git@example.com:2222/org/repo.git', 'ssh'],
    ['http://example.com/repo.git', 'http'],
    ['HTTPS://example.com/repo.git', 'https'],
    ['git@github.com:org/repo.git', 'ssh'],
    ['example.com:org/repo.git', 'ssh'],
  ])('classifies %s as %s', (url, type) => {
    expect(classifyRepositoryUrl(url)).toBe(type);
  });

  it.each(['ftp://example.com/repo', 'svn://example.com/repo', 'relative/path', 'repo', 'git@host', '/path with space', 'https://'])(
    'rejects %s', (url) => {
      expect(classifyRepositoryUrl(url)).toBeNull();
    },
  );
});
