import { Type, type Static } from '@sinclair/typebox';
import { closed } from './common';

/**
 * Re-authentication ("sudo mode"), a core service: a sensitive call (password, e-mail, a new token or SSH key, the
 * artifact password, ending sessions, "this wasn't me", two-factor changes) needs a proof given within the last
 * `REAUTH_WINDOW_MINUTES` (default 10) in this session; a sign-in is a proof. Without one the call answers
 * 403 `ReauthRequired` and changes nothing; the web asks for the proof in a dialog and repeats the call. A proof
 * rotates the session (a new cookie and CSRF token). Wrong passwords take lockout slots like sign-ins.
 */

export * from './reauth-paths';

/** How this account proves it is still its owner. */
export const ReauthMethodSchema = Type.Union([
  Type.Literal('password'),
  Type.Literal('directory'),
  Type.Literal('provider'),
]);
/** `password`: the account's; `directory`: its LDAP/AD password; `provider`: a fresh round trip to its provider. */
export type ReauthMethod = Static<typeof ReauthMethodSchema>;

/** `GET /users/ajax/v1/my/reauth`: how to prove, and until when the last proof holds. */
export const ReauthStateSchema = Type.Object(
  {
    method: ReauthMethodSchema,
    /** With `directory`: the directory's name; with `provider`: the provider id and name. */
    provider: Type.Union([Type.Object({ id: Type.String(), name: Type.String() }, closed), Type.Null()]),
    directory: Type.Union([Type.String(), Type.Null()]),
    window_minutes: Type.Integer(),
    fresh_until: Type.Union([Type.String({ description: 'ISO time' }), Type.Null()]),
  },
  closed,
);
/** How to prove, and until when the last proof holds. */
export type ReauthState = Static<typeof ReauthStateSchema>;

/** `POST /users/ajax/v1/my/reauth`: the password (the account's, or the directory's for a directory account). */
export const ReauthBodySchema = Type.Object({ password: Type.String({ minLength: 1, maxLength: 128 }) }, closed);
/** Body of a password proof. */
export type ReauthBody = Static<typeof ReauthBodySchema>;

/** A proof taken: the rotated session's CSRF token (its cookie is set) and until when it holds. */
export const ReauthResultSchema = Type.Object(
  { csrf_token: Type.String(), fresh_until: Type.String({ description: 'ISO time' }) },
  closed,
);
/** A proof taken. */
export type ReauthResult = Static<typeof ReauthResultSchema>;
