import { describe, expect, it } from 'vitest';
import { classifyRepositoryUrl, isUsualGitUrl } from '../../../src/server/domain/repositories/repository-url.ts';

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
    // as Semaphore: anything without a scheme is handed to git as written
    ['git@github.com/ansible,semaphore/semaphore', 'ssh'],
    ['git@example.com', 'ssh'],
    ['relative/path', 'ssh'],
    ['/path with space', 'local'],
  ])('classifies %s as %s', (url, type) => {
    expect(classifyRepositoryUrl(url)).toBe(type);
  });

  it.each(['ftp://example.com/repo', 'svn://example.com/repo', 'ext::sh -c touch% /tmp/x', 'fd::17', '', '  '])(
    'rejects %j: git would reach it through another transport or a helper', (url) => {
      expect(classifyRepositoryUrl(url)).toBeNull();
    },
  );

  it.each([
    ['git@github.com:org/repo.git', true], ['https://example.com/r.git', true], ['/srv/playbooks', true],
    ['git@example.com', false], ['git@github.com/ansible,semaphore/semaphore', false], ['relative/path', false],
    ['/path with space', false], ['https://', true],
  ])('the console calls %s usual: %s', (url, usual) => {
    expect(isUsualGitUrl(url)).toBe(usual);
  });
});
