import type { AppDescriptor, EditionManifest, MenuEntry } from '../edition';

/** Permission name → granted; the only thing pages, menus and routes consult. */
export type AccessFlags = Record<string, boolean>;

/** The signed-in user as far as access cares; null/undefined means nobody is signed in. */
export interface AccessUser {
  /** Platform user id. */
  id?: string;
  /** Legacy id field some endpoints return. */
  _userId?: string;
}

/** One entry of the organisation's installed-apps list: an identity string or an object naming it. */
export type InstalledApp = string | { key?: string; identity?: string; code?: string; id?: string; appId?: string };

/** Inputs of the access computation. */
export interface AccessInput {
  /** Current user; without one nothing but open entries is granted. */
  user: AccessUser | null | undefined;
  /** Identities of the apps the organisation has installed (keys like 'codeup', or app ids / vpc ids). */
  installedApps: readonly InstalledApp[] | null | undefined;
  /** This bundle's edition, to map app ids and vpc ids to app keys. */
  edition: Pick<EditionManifest, 'appSwitcher' | 'features'>;
}

/** The app key of the AI coding assistant, whose "installed" rule is special. */
export const LINGMA_APP_KEY = 'lingma';
/** The installed-apps list size that, with lingma in it, means lingma is installed (spec, read literally). */
export const LINGMA_IDENTITY_COUNT = 3;

/** The identity an installed-apps entry names; '' when it names none. */
export function installedAppIdentity(app: InstalledApp): string {
  if (typeof app === 'string') return app.trim();
  if (!app || typeof app !== 'object') return '';
  return String(app.key ?? app.identity ?? app.code ?? app.appId ?? app.id ?? '').trim();
}

function matchesDescriptor(identity: string, app: AppDescriptor): boolean {
  const id = identity.toLowerCase();
  return (
    id === app.key.toLowerCase() ||
    (!!app.id && id === app.id.toLowerCase()) ||
    (!!app.vpcId && id === app.vpcId.toLowerCase())
  );
}

/**
 * Maps user + installed apps + edition to permission flags; pure so every rule is unit-tested.
 * - `signedIn`: a user is present.
 * - one flag per app key of the edition's switcher (and per unknown identity): the app is installed.
 *   An identity matches an app by key, id or vpcId, case-insensitively.
 * - `lingma`: our literal reading of "counts as installed exactly when the list has three identities including
 *   lingma": the list, after dropping empty entries and duplicates, has exactly 3 identities and one is lingma.
 *   A list of 2 or 4 identities with lingma does NOT grant it.
 * - `privateDeployment`, `legacyTokens`: the edition's feature flags, so auth lists can name them.
 * Without a user every flag is false.
 */
export function computeAccess({ user, installedApps, edition }: AccessInput): AccessFlags {
  const flags: AccessFlags = {};
  const signedIn = !!user;
  const identities = [...new Set((installedApps ?? []).map(installedAppIdentity).filter(Boolean))];
  for (const app of edition.appSwitcher) flags[app.key] = false;
  for (const identity of identities) {
    const known = edition.appSwitcher.find((app) => matchesDescriptor(identity, app));
    flags[known ? known.key : identity] = signedIn;
  }
  const lingmaAliases = identities.filter((identity) => {
    const desc = edition.appSwitcher.find((a) => a.key === LINGMA_APP_KEY);
    return identity.toLowerCase() === LINGMA_APP_KEY || (!!desc && matchesDescriptor(identity, desc));
  });
  flags[LINGMA_APP_KEY] = signedIn && identities.length === LINGMA_IDENTITY_COUNT && lingmaAliases.length > 0;
  flags.signedIn = signedIn;
  flags.privateDeployment = signedIn && !!edition.features?.privateDeployment;
  flags.legacyTokens = signedIn && !!edition.features?.legacyTokens;
  return flags;
}

/** Whether an edition menu entry shows: 'always', or only when its app is installed. */
export function isMenuEntryVisible(entry: Pick<MenuEntry, 'visible'>, flags: AccessFlags): boolean {
  const v = entry.visible;
  if (v === 'always') return true;
  if (v && typeof v === 'object' && typeof v.appInstalled === 'string') return !!flags[v.appInstalled];
  return false;
}

/** Who may see a plugin's settings section on top of the edition's menu rule: a plain flag, or an app the organisation must have. */
export type Permission = boolean | { app: string };

/** Evaluates a plugin section's `permission`; absent means open. */
export function isPermitted(permission: Permission | undefined, flags: AccessFlags): boolean {
  if (permission === undefined) return true;
  if (typeof permission === 'boolean') return permission;
  return !!flags[permission.app];
}

/** Raised when a page's auth setting is not an array: a programming error, surfaced loudly. */
export class AuthConfigError extends TypeError {
  override name = 'AuthConfigError';
}

/** A page's auth list: absent or empty means open, else at least one named flag must be truthy; non-arrays throw. */
export function checkAuth(authList: unknown, flags: AccessFlags): boolean {
  if (authList === undefined || authList === null) return true;
  if (!Array.isArray(authList)) throw new AuthConfigError('auth must be an array of permission names');
  if (authList.length === 0) return true;
  return authList.some((name) => typeof name === 'string' && !!flags[name]);
}
