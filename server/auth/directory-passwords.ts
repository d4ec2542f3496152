// The core's view of directory passwords (LDAP, Windows AD): a slice that keeps the directories (login) implements
// it through `ServerProvides.directoryPasswords`; other slices (profile) reach it as `ctx.directoryPasswords` and
// never import the slice. Only what another slice needs leaves it: the directory's display name and a verdict.

/** The directory an account signs in through, as other slices may show it (never its settings). */
export interface DirectorySource {
  /** The directory's display name (e.g. "Windows AD", or the name its admin gave it). */
  name: string;
}

/**
 * What the directory said about a password: `ok` / `wrong` (a disabled or removed person is `wrong`, as at
 * sign-in); `unavailable` when the directory could not judge (down, or refusing the service's own bind), which must
 * count against nobody; `not-directory` when the account signs in through no enabled directory.
 */
export type DirectoryPasswordVerdict = 'ok' | 'wrong' | 'unavailable' | 'not-directory';

/** Where a directory's trouble is noted for the admin (a request's logger). */
export interface DirectoryTroubleLog {
  warn(obj: object, msg: string): void;
}

/** Asks an account's own directory about its password; implemented by a slice, absent (null) otherwise. */
export interface DirectoryPasswords {
  /** The enabled directory the account is linked to (it signs in there), or null for none. */
  sourceOf(userId: string): Promise<DirectorySource | null>;
  /**
   * Binds to the account's directory as its person with `password`; the directory's trouble is no exception but
   * `unavailable`, told to `log` for the admin (never a secret).
   */
  verify(userId: string, password: string, log?: DirectoryTroubleLog): Promise<DirectoryPasswordVerdict>;
}
