import { describe, expect, it } from 'vitest';
import { edition } from '../edition';
import { AuthConfigError, checkAuth, computeAccess, isMenuEntryVisible, isPermitted } from './access';

const user = { id: 'u1' };

describe('computeAccess', () => {
  it('grants an app flag when the organisation has it installed (by key, id or vpc id)', () => {
    const codeup = edition.appSwitcher.find((a) => a.key === 'codeup')!;
    const packages = edition.appSwitcher.find((a) => a.key === 'packages')!;
    expect(computeAccess({ user, installedApps: ['codeup'], edition })).toMatchObject({
      codeup: true,
      packages: false,
      signedIn: true,
    });
    expect(computeAccess({ user, installedApps: [codeup.id!], edition })).toMatchObject({ codeup: true });
    expect(computeAccess({ user, installedApps: [{ identity: packages.vpcId! }], edition })).toMatchObject({
      packages: true,
      codeup: false,
    });
    expect(computeAccess({ user, installedApps: [{ key: 'CodeUp' }], edition }).codeup).toBe(true);
  });

  it('grants nothing without a user, and nothing for an empty or missing list', () => {
    expect(computeAccess({ user: null, installedApps: ['codeup'], edition })).toMatchObject({
      codeup: false,
      signedIn: false,
    });
    expect(computeAccess({ user, installedApps: null, edition })).toMatchObject({
      codeup: false,
      packages: false,
      lingma: false,
    });
  });

  it('counts lingma as installed exactly when the list has three identities including lingma', () => {
    const flags = (apps: string[]) => computeAccess({ user, installedApps: apps, edition }).lingma;
    expect(flags(['lingma', 'codeup', 'packages'])).toBe(true);
    expect(flags(['org-member', 'lingma', 'org-admin'])).toBe(true);
    expect(flags(['lingma'])).toBe(false);
    expect(flags(['lingma', 'codeup'])).toBe(false);
    expect(flags(['lingma', 'codeup', 'packages', 'flow'])).toBe(false);
    expect(flags(['codeup', 'packages', 'flow'])).toBe(false);
    expect(flags(['lingma', 'lingma', 'codeup'])).toBe(false); // duplicates are one identity
    const lingmaId = edition.appSwitcher.find((a) => a.key === 'lingma')!.id!;
    expect(flags([lingmaId, 'codeup', 'packages'])).toBe(true);
  });

  it("exposes the edition's feature flags", () => {
    expect(
      computeAccess({
        user,
        installedApps: [],
        edition: { appSwitcher: [], features: { privateDeployment: true, legacyTokens: false } },
      }),
    ).toMatchObject({
      privateDeployment: true,
      legacyTokens: false,
    });
  });
});

describe('menu entries', () => {
  it("shows 'always' entries and app entries only when the app is installed", () => {
    const flags = computeAccess({ user, installedApps: ['codeup'], edition });
    const visible = edition.settingsMenu.filter((e) => isMenuEntryVisible(e, flags)).map((e) => e.key);
    expect(visible).toEqual(['profile', 'security', 'personalAccessToken', 'ssh', 'third-party']);
    expect(isMenuEntryVisible({ visible: { appInstalled: 'packages' } }, flags)).toBe(false);
    expect(isMenuEntryVisible({ visible: 'always' }, {})).toBe(true);
  });

  it('evaluates plugin section permissions (boolean or app)', () => {
    expect(isPermitted(undefined, {})).toBe(true);
    expect(isPermitted(true, {})).toBe(true);
    expect(isPermitted(false, { codeup: true })).toBe(false);
    expect(isPermitted({ app: 'codeup' }, { codeup: true })).toBe(true);
    expect(isPermitted({ app: 'codeup' }, {})).toBe(false);
  });
});

describe('checkAuth', () => {
  it('treats no list or an empty list as open', () => {
    expect(checkAuth(undefined, {})).toBe(true);
    expect(checkAuth(null, {})).toBe(true);
    expect(checkAuth([], {})).toBe(true);
  });
  it('passes when at least one listed name is truthy', () => {
    expect(checkAuth(['a', 'b'], { b: true })).toBe(true);
    expect(checkAuth(['a', 'b'], { a: false })).toBe(false);
    expect(checkAuth(['a'], {})).toBe(false);
  });
  it('throws when the auth setting is not an array', () => {
    expect(() => checkAuth('codeup', { codeup: true })).toThrow(AuthConfigError);
    expect(() => checkAuth({ codeup: true }, {})).toThrow(/must be an array/);
  });
});
