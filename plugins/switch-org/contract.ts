import { Type, type Static } from '@sinclair/typebox';
import { closed } from '../../schemas/common';
import {
  HELP_LINK_ID_MAX,
  MEMBERS_QUERY_MAX,
  ORG_ID_MAX,
  ORG_NEXT_TOKEN_MAX,
  ORG_PAGE_SIZE_DEFAULT,
  ORG_PAGE_SIZE_MAX,
} from './limits';

/**
 * The switch-organisation slice's wire shapes, once: the routes hand these schemas to Fastify, the service
 * and the pages use their static types (the pages with `import type` only, so TypeBox never reaches a bundle;
 * plain limits come from `./limits`).
 */
export * from './limits';

const Id = Type.String({ minLength: 1, maxLength: ORG_ID_MAX });
const NullableString = Type.Union([Type.String(), Type.Null()]);

/** One organisation of the chooser: id, name and logo (null when it has none). */
export const OrganizationSchema = Type.Object({ id: Type.String(), name: Type.String(), logo: NullableString }, closed);
/** An organisation as the chooser lists it. */
export type Organization = Static<typeof OrganizationSchema>;

/** Position in the organisation list: the opaque token of the next page (absent or null for the first). */
export const OrganizationsPaginationSchema = Type.Object(
  {
    next_token: Type.Optional(
      Type.Union([Type.String({ maxLength: ORG_NEXT_TOKEN_MAX }), Type.Null()], {
        description: 'The `pages.next_token` of the previous answer; absent, null or empty for the first page',
      }),
    ),
    page_size: Type.Integer({ minimum: 1, maximum: ORG_PAGE_SIZE_MAX, default: ORG_PAGE_SIZE_DEFAULT }),
  },
  { ...closed, default: {} },
);
/** Static type of the organisation list pagination (after defaults). */
export type OrganizationsPagination = Static<typeof OrganizationsPaginationSchema>;

/** Body of `POST /individual/proxy/my/organizations`: the caller's own id and the page wanted. */
export const OrganizationsListBodySchema = Type.Object(
  { user_id: Id, pagination: OrganizationsPaginationSchema },
  closed,
);
/** What the chooser sends for one page of the caller's organisations. */
export type OrganizationsListBody = Static<typeof OrganizationsListBodySchema>;

/** Answer of the organisation list: one page, ordered by name, and the token of the next (null on the last). */
export const OrganizationsListAnswerSchema = Type.Object(
  {
    organizations: Type.Array(OrganizationSchema),
    pages: Type.Object({ next_token: NullableString }, closed),
  },
  closed,
);
/** One page of the caller's organisations. */
export type OrganizationsListAnswer = Static<typeof OrganizationsListAnswerSchema>;

/** Body of `PUT /uiless/api/sdk/users/lastWorkspace`: the organisation to work in from now on. */
export const LastWorkspaceBodySchema = Type.Object({ organization_id: Id }, closed);
/** What the chooser sends when the user picks an organisation. */
export type LastWorkspaceBody = Static<typeof LastWorkspaceBodySchema>;

/** Answer of the switch: the organisation now current. */
export const LastWorkspaceAnswerSchema = Type.Object({ organization_id: Type.String() }, closed);
/** Static type of the switch answer. */
export type LastWorkspaceAnswer = Static<typeof LastWorkspaceAnswerSchema>;

/** Params of the organisation-scoped calls (`/uiless/api/organizations/:id/...`). */
export const OrgParamsSchema = Type.Object({ id: Id }, closed);
/** Static type of the organisation params. */
export type OrgParams = Static<typeof OrgParamsSchema>;

/** Params naming an organisation and an app (its key, its id or its vpc id, as the edition's switcher names them). */
export const OrgAppParamsSchema = Type.Object({ id: Id, appId: Id }, closed);
/** Static type of the organisation and app params. */
export type OrgAppParams = Static<typeof OrgAppParamsSchema>;

/** Answer of the app access check: `pass`, and when it fails, why. */
export const AppAccessAnswerSchema = Type.Object(
  {
    pass: Type.Boolean(),
    reason: Type.Optional(
      Type.Union([Type.Literal('notInstalled'), Type.Literal('noPermission')], {
        description:
          'notInstalled: the app is not installed in the organisation; noPermission: the user may not use it',
      }),
    ),
  },
  closed,
);
/** Whether the caller may enter the app in the organisation (the guard's first call). */
export type AppAccessAnswer = Static<typeof AppAccessAnswerSchema>;

/** Params of `GET /uiless/apps/:id`: the app by key, id or vpc id (the organisation comes from x-tenant-id). */
export const AppParamsSchema = Type.Object({ id: Id }, closed);
/** Static type of the app params. */
export type AppParams = Static<typeof AppParamsSchema>;

/** Answer of the app info: the app as installed in the organisation and where it lives. */
export const AppInfoSchema = Type.Object(
  {
    id: Type.String({ description: 'The id of the app as installed in the organisation' }),
    key: Type.String(),
    name: Type.String(),
    raw_url: Type.Union([Type.String(), Type.Null()], {
      description: 'The edition’s url of the app; null when it has none (the guard then goes to /)',
    }),
  },
  closed,
);
/** An app installed in the organisation (the guard's second call). */
export type AppInfo = Static<typeof AppInfoSchema>;

/** Answer of the app permissions: the named permissions the caller holds in the app (admins hold all). */
export const AppPermissionsAnswerSchema = Type.Object({ permissions: Type.Array(Type.String()) }, closed);
/** Static type of the app permissions answer. */
export type AppPermissionsAnswer = Static<typeof AppPermissionsAnswerSchema>;

/** One administrator of one app in the organisation. */
export const AppAdminSchema = Type.Object(
  { user_id: Type.String(), name: Type.String(), app_key: Type.String() },
  closed,
);
/** An app administrator (whom to ask for access). */
export type AppAdmin = Static<typeof AppAdminSchema>;

/** Answer of the organisation's app admins, by app then name. */
export const AppAdminsAnswerSchema = Type.Object({ admins: Type.Array(AppAdminSchema) }, closed);
/** Static type of the app admins answer. */
export type AppAdminsAnswer = Static<typeof AppAdminsAnswerSchema>;

/** Params of `GET /uiless/api/helpLink/:id`: the help link's purpose (`helpCenter`, `accessToken`…). */
export const HelpLinkParamsSchema = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: HELP_LINK_ID_MAX }) },
  closed,
);
/** Static type of the help-link params. */
export type HelpLinkParams = Static<typeof HelpLinkParamsSchema>;

/** Answer of the help link: the edition's url for that purpose (opened in a new window). */
export const HelpLinkAnswerSchema = Type.Object({ url: Type.String() }, closed);
/** Static type of the help-link answer. */
export type HelpLinkAnswer = Static<typeof HelpLinkAnswerSchema>;

/** Query of the members lookup: user ids, comma separated (at most `MEMBERS_LOOKUP_MAX`). */
export const MembersListQuerySchema = Type.Object(
  { userIds: Type.String({ maxLength: MEMBERS_QUERY_MAX, description: 'Comma-separated user ids, at most 100' }) },
  closed,
);
/** Static type of the members lookup query. */
export type MembersListQuery = Static<typeof MembersListQuerySchema>;

/** Params of the private-deployment members lookup (`/api/organizations/:orgId/members/list`). */
export const OrgMembersParamsSchema = Type.Object({ orgId: Id }, closed);
/** Static type of the private-deployment members params. */
export type OrgMembersParams = Static<typeof OrgMembersParamsSchema>;

/** One member as the lookup answers it. */
export const MemberSchema = Type.Object({ id: Type.String(), name: Type.String(), avatar: NullableString }, closed);
/** A user found by the members lookup (only users sharing an organisation with the caller). */
export type Member = Static<typeof MemberSchema>;

/** Answer of the members lookup: the ids found, in the order asked; unknown or foreign ids are left out. */
export const MembersListAnswerSchema = Type.Object({ members: Type.Array(MemberSchema) }, closed);
/** Static type of the members lookup answer. */
export type MembersListAnswer = Static<typeof MembersListAnswerSchema>;
