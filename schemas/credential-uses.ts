import { Type, type Static } from '@sinclair/typebox';
import { closed } from './common';
import { CREDENTIAL_KINDS, CREDENTIAL_TIMELINE_PAGE, CREDENTIAL_USE_OUTCOMES } from './credential-kinds';

// Credentials in use (issue 42), on the wire: a credential's last use (in the token and SSH key lists) and its usage
// timeline (`GET /users/ajax/v1/my/credential-uses`, a core route: rows carry their owner, so the owner check is
// the session's user).

export * from './credential-kinds';

/** A credential kind on the wire. */
export const CredentialKindSchema = Type.Union(CREDENTIAL_KINDS.map((k) => Type.Literal(k)));

/** The last time a credential was used with success, and from where: what the lists show beside it. */
export const LastUseSchema = Type.Object(
  {
    at: Type.String({ description: 'ISO time' }),
    /** The client address as the service saw it (the gate's or the proxy's report for git and downloads). */
    address: Type.String(),
    /** User agent, or `git/2.39 (ssh)`-style for git; null when the client did not say. */
    client: Type.Union([Type.String(), Type.Null()]),
  },
  closed,
);
/** A credential's last successful use. */
export type LastUse = Static<typeof LastUseSchema>;

/** One row of a credential's timeline: the first use of its minute from its address with its outcome. */
export const CredentialUseSchema = Type.Object(
  {
    id: Type.String(),
    at: Type.String({ description: 'ISO time' }),
    address: Type.String(),
    client: Type.Union([Type.String(), Type.Null()]),
    /** What was done: `GET /oapi/v1/platform/user`, `git-upload-pack org/repo`, `download /npm/a.tgz`… */
    action: Type.String(),
    outcome: Type.Union(CREDENTIAL_USE_OUTCOMES.map((o) => Type.Literal(o))),
    /** Why it was refused (`CREDENTIAL_REFUSALS`); null when let through. */
    reason: Type.Union([Type.String(), Type.Null()]),
  },
  closed,
);
/** One recorded use. */
export type CredentialUseView = Static<typeof CredentialUseSchema>;

/** `GET /users/ajax/v1/my/credential-uses?kind=&id=&before=`: a page of the timeline, newest first. */
export const CredentialUsesQuerySchema = Type.Object(
  {
    kind: CredentialKindSchema,
    id: Type.String({ minLength: 1, maxLength: 64 }),
    /** The `next` of the previous page. */
    before: Type.Optional(Type.String({ maxLength: 64 })),
  },
  closed,
);
/** The timeline's query. */
export type CredentialUsesQuery = Static<typeof CredentialUsesQuerySchema>;

/** A page of a timeline; `next` is given to `before` for the older page, null at the end. */
export const CredentialUsesPageSchema = Type.Object(
  {
    uses: Type.Array(CredentialUseSchema, { maxItems: CREDENTIAL_TIMELINE_PAGE }),
    next: Type.Union([Type.String(), Type.Null()]),
  },
  closed,
);
/** A page of a timeline. */
export type CredentialUsesPage = Static<typeof CredentialUsesPageSchema>;

/** A credential's health mark (the security page's "credential health"). */
export const HealthMarkSchema = Type.Union([
  Type.Literal('never-used'),
  Type.Literal('unused-30'),
  Type.Literal('unused-90'),
  Type.Literal('expiring'),
  Type.Literal('expired'),
]);
/** Never used, unused for 30 or 90 days, expiring within 7 days, expired. */
export type HealthMark = Static<typeof HealthMarkSchema>;

/** One credential of an account as the health section lists it. */
export const CredentialHealthItemSchema = Type.Object(
  {
    kind: Type.Union([CredentialKindSchema, Type.Literal('session')]),
    id: Type.String(),
    name: Type.String(),
    createdAt: Type.String({ description: 'ISO time' }),
    expiresAt: Type.Union([Type.String(), Type.Null()]),
    lastUse: Type.Union([LastUseSchema, Type.Null()]),
    /** A session's browser as its User-Agent tells it (each part null when it does not), for the page to name it. */
    browser: Type.Optional(
      Type.Object(
        {
          name: Type.Union([Type.String(), Type.Null()]),
          version: Type.Union([Type.String(), Type.Null()]),
          os: Type.Union([Type.String(), Type.Null()]),
        },
        closed,
      ),
    ),
    marks: Type.Array(HealthMarkSchema),
    /**
     * True when "revoke all stale" would revoke it: expired, or unused for 30 days or more (counted from its creation
     * when never used, so a new credential not used yet is not stale); never the session in use.
     */
    stale: Type.Boolean(),
  },
  closed,
);
/** One credential in the health list. */
export type CredentialHealthItem = Static<typeof CredentialHealthItemSchema>;
