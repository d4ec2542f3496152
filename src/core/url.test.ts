import { describe, expect, it } from 'vitest';
import {
  CORPUS_APP_ORIGIN,
  CORPUS_ORIGIN,
  isAbsoluteTarget,
  REDIRECT_CORPUS,
} from '../../tests/fixtures/redirect-corpus';
import { isSameOriginPath, originsOf, safeRedirect } from './url';

const opts = { origin: CORPUS_ORIGIN, allowedOrigins: [CORPUS_APP_ORIGIN], fallback: '/fallback' };

/** True when a target stays on the page's origin or a listed one. */
function staysHome(target: string, origins: readonly string[]): boolean {
  if (!isAbsoluteTarget(target)) return target.startsWith('/') && !/^\/[/\\]/.test(target);
  return origins.includes(new URL(target).origin);
}

describe('safeRedirect over the redirect corpus', () => {
  it.each(REDIRECT_CORPUS.map((c) => [c.why, c] as const))('%s', (_why, c) => {
    expect(safeRedirect(c.payload, opts)).toBe(c.target ?? '/fallback');
  });

  it('accepts no foreign origin, and the listed origin only when it is given', () => {
    let accepted = 0;
    for (const c of REDIRECT_CORPUS) {
      const got = safeRedirect(c.payload, opts);
      if (got !== '/fallback') accepted++;
      expect(staysHome(got, [CORPUS_ORIGIN, CORPUS_APP_ORIGIN]), c.payload).toBe(true);
      const own = safeRedirect(c.payload, { origin: CORPUS_ORIGIN, fallback: '/fallback' });
      expect(staysHome(own, [CORPUS_ORIGIN]), c.payload).toBe(true);
    }
    expect(REDIRECT_CORPUS.length).toBeGreaterThanOrEqual(80);
    expect(accepted).toBe(REDIRECT_CORPUS.filter((c) => c.target !== null).length);
    expect(safeRedirect(`${CORPUS_APP_ORIGIN}/x`, { origin: CORPUS_ORIGIN, fallback: '/f' })).toBe('/f');
  });
});

describe('safeRedirect', () => {
  it('keeps same-origin paths and URLs on exactly the page origin (scheme, host and port)', () => {
    const local = { origin: 'http://127.0.0.1:5173', fallback: '/fallback' };
    expect(safeRedirect('http://127.0.0.1:5173/users', local)).toBe('http://127.0.0.1:5173/users');
    expect(safeRedirect('/users/settings/profile?x=1#y', local)).toBe('/users/settings/profile?x=1#y');
    // The finding: the same host name on another port or scheme was followed.
    for (const other of ['http://127.0.0.1:9999/', 'https://127.0.0.1:5173/', 'http://localhost:5173/'])
      expect(safeRedirect(other, local), other).toBe('/fallback');
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
    'https://devops.example.com.evil.com',
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
    expect(safeRedirect(null, { origin: CORPUS_ORIGIN })).toBe('/');
  });

  it('accepts no absolute URL when the page has no usable origin', () => {
    for (const origin of ['null', '', 'devops.example.com'])
      expect(safeRedirect(`${CORPUS_ORIGIN}/x`, { origin, fallback: '/f' }), origin).toBe('/f');
  });

  it('allows only single-slash paths as relative targets', () => {
    expect(isSameOriginPath('/a/b')).toBe(true);
    expect(isSameOriginPath('/')).toBe(true);
    expect(isSameOriginPath('a/b')).toBe(false);
    expect(isSameOriginPath('//a')).toBe(false);
    expect(isSameOriginPath('/../..//a')).toBe(false);
  });

  it('lists the exact origins of absolute addresses and skips paths', () => {
    expect(
      originsOf(['/codeup/', 'https://Codeup.example.com:443/x', 'http://a.example:8080/', undefined, 'ftp://x/']),
    ).toEqual(['https://codeup.example.com', 'http://a.example:8080']);
  });
});
