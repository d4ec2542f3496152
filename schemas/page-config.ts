import { Type, type Static } from '@sinclair/typebox';

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
  },
  { additionalProperties: false },
);

/** Per-page settings the service hands to the app: everything the client needs before its first call. */
export type PageConfig = Static<typeof PageConfigSchema>;
