import { describe, expect, it } from 'vitest';
import { parseRepositoryPath } from './gate-service';

describe('repository paths as the service reads them', () => {
  it('is `<organisation>/<repo>.git`, `.git` optional, one leading slash allowed', () => {
    expect(parseRepositoryPath('Acme/demo.git')).toEqual({ org: 'Acme', repo: 'demo.git' });
    expect(parseRepositoryPath('/acme/demo')).toEqual({ org: 'acme', repo: 'demo.git' });
    expect(parseRepositoryPath('Demo Organization/demo.git')).toEqual({ org: 'Demo Organization', repo: 'demo.git' });
  });

  it('refuses anything else', () => {
    for (const p of [
      'demo.git',
      'a/b/c.git',
      '//a/b.git',
      '../b.git',
      'a/..',
      'a/.git',
      'a/.x.git',
      '.a/b.git',
      'a/b c.git',
      'a\\b/c.git',
      'a/b\u0000.git',
      ' /b.git',
      `a/${'x'.repeat(100)}.git`,
    ])
      expect(parseRepositoryPath(p), p).toBeNull();
  });
});
