import { Type, type Static } from '@sinclair/typebox';
import type { AppsSearchAnswer, Me, Organization } from './session';
import type { SupportedLocale } from './locale';
import { SignInMethodsSchema } from './sign-in';

/** The configuration the service renders into `<script id="page-config">` and the web app reads at boot. */
export const PageConfigSchema = Type.Object(
  {
    appId: Type.String({ description: 'Application id sent as `x-app-id` on `/uiless/` calls' }),
    orgId: Type.String({ description: 'Organisation id as the platform names it (`orgId`)' }),
    env: Type.String({ description: "Deployment environment; 'aliyun' unless the page says otherwise" }),
    host: Type.String({ description: 'Base URL of every call; empty means the page’s own origin' }),
    organizationId: Type.String({ description: 'Current organisation, sent as `x-tenant-id`; falls back to `orgId`' }),
    csrfToken: Type.Optional(
      Type.String({ description: 'Anti-CSRF token echoed as `X-CSRF-Token`; absent on pages without a session' }),
    ),
    signIn: Type.Optional(SignInMethodsSchema),
    bootstrap: Type.Optional(
      Type.Unsafe<PageBootstrap>(Type.Object({}, { description: 'What the first render needs (see PageBootstrap)' })),
    ),
  },
  { additionalProperties: false },
);

/** Per-page settings the service hands to the app: everything the client needs before its first call. */
export type PageConfig = Static<typeof PageConfigSchema>;

/**
 * What a page needs before its first render, put in the page by the service so nothing waits for a call: the
 * message catalogue of the language the page will show, and for a signed-in page the user, the current
 * organisation and its installed applications (or why the organisation refused). Not part of the schema above:
 * the web app reads it leniently and falls back to the calls when it is absent or stale.
 */
export interface PageBootstrap {
  /** The language the catalogue is in: the locale cookie's, else the edition's default (the web app's own rule). */
  locale: SupportedLocale;
  /**
   * Every message of the edition's bundle in that language, compiled to formatjs syntax trees by the build (plain
   * ICU strings are accepted too); absent when the build wrote no catalogue.
   */
  messages?: Record<string, string | unknown[]>;
  /** The signed-in user as `GET /individual/proxy/me` answers; absent on pages without a session. */
  me?: Me;
  /** The current organisation; null without one or when it refused. */
  organization?: Organization | null;
  /** Its installed applications as `POST /uiless/api/apps:search` answers; null when the organisation refused. */
  apps?: AppsSearchAnswer['results'] | null;
  /** The error code the organisation refused with (IP whitelist, licence, order, membership); null when admitted. */
  organizationError?: string | null;
  /**
   * The refusing organisation's name where the refusal is the member's own to lift (a missing second factor), so the
   * notice can say who asks; absent otherwise.
   */
  refusedOrganizationName?: string;
  /**
   * What the mounted plugins give for this page's first render, by plugin id (see `ServerPlugin.pageData`): e.g.
   * the bell's unread counts, the profile page's bind attributes, the sign-in page's waiting third-party account (a
   * page without a session may have some too). Each plugin checks the shape of its own part.
   */
  plugins?: Record<string, unknown>;
}
