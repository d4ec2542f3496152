import { describe, expect, it } from 'vitest';
import { pagePath, settingsSectionKey } from './page-paths';

describe('page paths', () => {
  it('compares a page without its trailing slashes, the root staying the root', () => {
    expect(pagePath('/users/notifications/')).toBe('/users/notifications');
    expect(pagePath('/users/notifications//')).toBe('/users/notifications');
    expect(pagePath('/users/notifications')).toBe('/users/notifications');
    expect(pagePath('/')).toBe('/');
  });

  it('reads the settings section of a path', () => {
    expect(settingsSectionKey('/users/settings/ssh/create')).toBe('ssh');
    expect(settingsSectionKey('/users/notifications')).toBeUndefined();
  });
});
