import { describe, expect, it } from 'vitest';
import { isHostAllowed, isSafeUrl, isSameOriginPath, safeRedirect } from './url';

const opts = { currentHost: 'host.com', allowedHosts: ['devops.example.com'], fallback: '/fallback' };

describe('URL checker', () => {
  it('accepts http(s) URLs on whitelisted hosts, exact or subdomain, case-insensitively', () => {
    expect(isSafeUrl('https://host.com/a?b=1', ['host.com'])).toBe(true);
    expect(isSafeUrl('http://HOST.com:8080/x', ['host.com'])).toBe(true);
    expect(isSafeUrl('https://app.Host.COM/', ['host.com'])).toBe(true);
    expect(isSafeUrl('https://evil.com.host.com/', ['host.com'])).toBe(true);
    expect(isHostAllowed('a.b.host.com', ['HOST.com:443'])).toBe(true);
  });

  it('refuses look-alike hosts, other schemes and userinfo tricks', () => {
    for (const bad of [
      'https://host.com.evil.com/',
      'https://evilhost.com/',
      'https://host@evil.com/',
      'https://host.com@evil.com/',
      'https://host.com:pw@evil.com/',
      'https://evil.com#@host.com',
      'https://evil.com\\@host.com',
      'ftp://host.com/',
      'javascript:alert(1)//host.com',
      'data:text/html,<script>alert(1)</script>',
      '//host.com/x',
    ])
      expect(isSafeUrl(bad, ['host.com']), bad).toBe(false);
  });
});

describe('safeRedirect', () => {
  it('keeps same-origin paths and whitelisted absolute URLs', () => {
    expect(safeRedirect('/users/settings/profile?x=1#y', opts)).toBe('/users/settings/profile?x=1#y');
    expect(safeRedirect('https://host.com/users', opts)).toBe('https://host.com/users');
    expect(safeRedirect('https://devops.example.com/app', opts)).toBe('https://devops.example.com/app');
    expect(safeRedirect('https://api.devops.example.com/app', opts)).toBe('https://api.devops.example.com/app');
  });

  it.each([
    '//evil.com',
    '\\\\evil.com',
    '/\\evil.com',
    '\\/evil.com',
    'https://host.com@evil.com',
    'https://host@evil',
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    ' javascript:alert(1)',
    'java\tscript:alert(1)',
    '%2F%2Fevil.com',
    '/%2F/evil.com',
    '/%5Cevil.com',
    '\t//evil.com',
    '\n//evil.com',
    '\u0000//evil.com',
    '/\t/evil.com',
    ' //evil.com',
    'https://evil.com',
    'https://host.com.evil.com',
    'data:text/html;base64,PHNjcmlwdD4=',
    'vbscript:msgbox(1)',
    'evil.com',
    'users/settings',
    'http:/evil.com',
    'https:evil.com',
    '',
  ])('falls back for hostile input %j', (target) => {
    expect(safeRedirect(target, opts)).toBe('/fallback');
  });

  it('falls back for missing targets and defaults the fallback to /', () => {
    expect(safeRedirect(undefined, opts)).toBe('/fallback');
    expect(safeRedirect(null, { currentHost: 'host.com' })).toBe('/');
  });

  it('allows only single-slash paths as relative targets', () => {
    expect(isSameOriginPath('/a/b')).toBe(true);
    expect(isSameOriginPath('/')).toBe(true);
    expect(isSameOriginPath('a/b')).toBe(false);
    expect(isSameOriginPath('//a')).toBe(false);
  });
});
