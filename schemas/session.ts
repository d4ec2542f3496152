import { Type, type Static } from '@sinclair/typebox';
import { closed, ColorSchemeSchema } from './common';

/** Wire shapes of the session calls every page makes: who am I, which apps, which organisation. */

const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);

/** The signed-in user as `GET /individual/proxy/me` answers it (registered once as `Me`, referenced by other answers). */
export const MeSchema = Type.Object(
  {
    id: Type.String(),
    username: Type.String(),
    name: Type.String(),
    email: Nullable(Type.String()),
    email_verified: Type.Boolean(),
    avatar: Nullable(Type.String()),
    language: Nullable(Type.String()),
    must_change_password: Type.Boolean(),
    organization_id: Nullable(Type.String()),
    colorScheme: ColorSchemeSchema,
  },
  { $id: 'Me', additionalProperties: false },
);
/** The signed-in user, as the web shell holds it. */
export type Me = Static<typeof MeSchema>;

/** Query of `GET /individual/proxy/me` (the web app asks with e-mail info). */
export const MeQuerySchema = Type.Object({ with_email_info: Type.Optional(Type.Boolean()) }, closed);
/** Static type of the `me` query. */
export type MeQuery = Static<typeof MeQuerySchema>;

/** One application installed in the organisation. */
export const InstalledAppSchema = Type.Object(
  { identity: Type.String(), id: Type.String(), name: Type.String() },
  closed,
);
/** An installed application: `identity` is the app key the menus test. */
export type InstalledApp = Static<typeof InstalledAppSchema>;

/** Body of `POST /uiless/api/apps:search` (the web client posts `{}`; no body counts as `{}`). */
export const AppsSearchBodySchema = Type.Object(
  {
    identities: Type.Optional(Type.Array(Type.String({ maxLength: 40 }), { maxItems: 50 })),
    pagination: Type.Optional(
      Type.Object(
        {
          next_token: Type.Optional(Type.String()),
          page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
        },
        closed,
      ),
    ),
  },
  closed,
);
/** Static type of the apps search body. */
export type AppsSearchBody = Static<typeof AppsSearchBodySchema>;

/** Answer of `POST /uiless/api/apps:search`. */
export const AppsSearchAnswerSchema = Type.Object({ results: Type.Array(InstalledAppSchema) }, closed);
/** Static type of the apps search answer. */
export type AppsSearchAnswer = Static<typeof AppsSearchAnswerSchema>;

/** One organisation the user belongs to (`GET /uiless/api/organizations/:id`). */
export const OrganizationSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    logo: Type.Union([Type.String(), Type.Null()]),
    // Epoch ms: the organisation requires a second factor the caller lacks, and refuses them from then (issue 41).
    second_factor_deadline: Type.Optional(Type.Integer()),
  },
  closed,
);
/** An organisation as the shell shows it. */
export type Organization = Static<typeof OrganizationSchema>;

/** Params of `GET /uiless/api/organizations/:id`. */
export const OrganizationParamsSchema = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
/** Static type of the organisation params. */
export type OrganizationParams = Static<typeof OrganizationParamsSchema>;

/** A reference to the registered `Me` schema, for answers that are the current user (the app registers `MeSchema` once). */
export const MeRefSchema = Type.Unsafe<Me>(Type.Ref('Me'));
