import { afterEach, describe, expect, it, vi } from 'vitest';
import { TIME_ZONE_COOKIE, knownTimeZone, timeZoneName } from '../../../schemas/time-zone';
import { browserTimeZone, rememberTimeZone } from './time-zone';

describe('knownTimeZone', () => {
  it('answers the zones the runtime knows, as named', () => {
    expect(knownTimeZone('Asia/Shanghai')).toBe('Asia/Shanghai');
    expect(knownTimeZone('America/Argentina/Buenos_Aires')).toBe('America/Argentina/Buenos_Aires');
    expect(knownTimeZone('UTC')).toBe('UTC');
  });

  it('refuses anything else without throwing: unknown, empty, too long, odd characters, not a string', () => {
    for (const zone of [
      'Mars/Olympus',
      '',
      'A'.repeat(65),
      'Asia/Shanghai;x',
      '<script>',
      '../etc',
      42,
      null,
      undefined,
    ])
      expect(knownTimeZone(zone)).toBeUndefined();
  });
});

describe('timeZoneName', () => {
  it('checks the shape of a name only (what the browser compares), not that a runtime knows the zone', () => {
    expect(timeZoneName('Asia/Kolkata')).toBe('Asia/Kolkata');
    expect(timeZoneName('Mars/Olympus')).toBe('Mars/Olympus');
    for (const zone of ['', 'A'.repeat(65), 'Asia/Shanghai;x', '<script>', '../etc', 42, null])
      expect(timeZoneName(zone)).toBeUndefined();
  });
});

describe('rememberTimeZone', () => {
  afterEach(() => {
    document.cookie = `${TIME_ZONE_COOKIE}=; path=/; max-age=0`;
    vi.restoreAllMocks();
  });

  it("writes the browser's zone in its cookie, and leaves the cookie alone when it already says so", () => {
    const zone = browserTimeZone();
    expect(zone).toBeTruthy();
    rememberTimeZone();
    expect(document.cookie.split('; ')).toContain(`${TIME_ZONE_COOKIE}=${encodeURIComponent(zone!)}`);
    const set = vi.spyOn(document, 'cookie', 'set');
    rememberTimeZone();
    expect(set).not.toHaveBeenCalled();
  });
});
