import { describe, expect, it } from 'vitest';
import { isBrowserNavigation } from './navigation';

const CHROMIUM = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';

describe('isBrowserNavigation', () => {
  it('is a GET or HEAD of a page whose Accept puts HTML first, without X-Requested-With', () => {
    expect(isBrowserNavigation('GET', '/docs/', { accept: CHROMIUM })).toBe(true);
    expect(isBrowserNavigation('HEAD', '/users/nope?x=1', { accept: CHROMIUM })).toBe(true);
    expect(isBrowserNavigation('GET', '/docs/guide.html', { accept: 'text/*' })).toBe(true);
    expect(isBrowserNavigation('POST', '/docs/', { accept: CHROMIUM })).toBe(false);
    expect(isBrowserNavigation('GET', '/docs/', { accept: CHROMIUM, 'x-requested-with': 'XMLHttpRequest' })).toBe(
      false,
    );
  });

  it('is never an API path, a file or a request that prefers JSON or takes anything', () => {
    expect(isBrowserNavigation('GET', '/users/ajax/v1/x', { accept: CHROMIUM })).toBe(false);
    expect(isBrowserNavigation('GET', '/static/js/async/', { accept: CHROMIUM })).toBe(false);
    expect(isBrowserNavigation('GET', '/favicon.ico', { accept: CHROMIUM })).toBe(false);
    expect(isBrowserNavigation('GET', '/brand/logo.svg?v=2', { accept: CHROMIUM })).toBe(false);
    expect(isBrowserNavigation('GET', '/docs/', { accept: '*/*' })).toBe(false);
    expect(isBrowserNavigation('GET', '/docs/', {})).toBe(false);
    expect(isBrowserNavigation('GET', '/docs/', { accept: 'application/json, text/html;q=0.5' })).toBe(false);
    expect(isBrowserNavigation('GET', '/docs/', { accept: 'text/html;q=0' })).toBe(false);
    expect(isBrowserNavigation('GET', '/docs/', { accept: 'text/*;q=0.3, application/json;q=0.2' })).toBe(true);
  });
});
