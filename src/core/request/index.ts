import { readPageConfig, type PageConfig } from '../page-config';
import { createRequestClient, type RequestClient, type RequestClientOptions, type RequestHooks } from './client';

export * from './client';
export * from './constants';
export * from './errors';
export * from './members';

/** Client options derived from the page configuration: host, CSRF token, app id and current organisation. */
export function requestOptionsFromPageConfig(config: PageConfig): RequestClientOptions {
  return {
    baseUrl: config.host,
    csrfToken: config.csrfToken,
    appId: config.appId,
    tenantId: config.organizationId || config.orgId,
  };
}

let instance: RequestClient | undefined;

/** The app's one client, created from the page configuration on first use. */
export function getRequestClient(): RequestClient {
  instance ??= createRequestClient(requestOptionsFromPageConfig(readPageConfig()));
  return instance;
}

/** Installs the app's hooks (translator in the app locale, notice display, reporter, 401 redirect) on the one client. */
export function configureRequestClient(hooks: Partial<RequestHooks>): RequestClient {
  const client = getRequestClient();
  client.configure(hooks);
  return client;
}

/**
 * Records the organisation the user switched to on the app's one client, so later `/uiless/` calls carry it as
 * `x-tenant-id` (stores do the same through `client.setTenantId`; the session follows `me` on every load).
 */
export function setCurrentOrganizationId(id: string | undefined): void {
  getRequestClient().setTenantId(id || undefined);
}

/** Test seam: forgets the one client so the next `getRequestClient()` reads the page again. */
export function resetRequestClientForTests(): void {
  instance = undefined;
}
