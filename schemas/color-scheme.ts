/**
 * The account's colour scheme preference, as the wire, the database and the web app know it. Plain constants only
 * (no imports, no TypeBox), so any bundle may import them; the TypeBox schema is `ColorSchemeSchema` in
 * `schemas/common.ts`.
 */

/** What a user may choose, in the order the profile lists them: follow the system (the default), light, dark. */
export const COLOR_SCHEMES = ['system', 'light', 'dark'] as const;
/** One colour scheme preference. */
export type ColorScheme = (typeof COLOR_SCHEMES)[number];

/** What an account has until it chooses, and what a signed-out page uses. */
export const DEFAULT_COLOR_SCHEME: ColorScheme = 'system';

/** Whether a value read from outside (a page's bootstrap, a row, a request) is one of the three. */
export function isColorScheme(value: unknown): value is ColorScheme {
  return typeof value === 'string' && (COLOR_SCHEMES as readonly string[]).includes(value);
}
