import type { PageBootstrap, PageConfig as ServedPageConfig } from '../../schemas/page-config';
import type { DirectoryKind, OAuthProvider, SignInMethods } from '../../schemas/sign-in';
import { createContext, useContext, useState } from 'react';
import { isRecord } from './shape';

/** The id of the `<script type="application/json">` tag the service renders into every page. */
export const PAGE_CONFIG_ELEMENT_ID = 'page-config';

/** The environment assumed when the page does not name one. */
export const DEFAULT_ENV = 'aliyun';

/** Per-page settings the service hands to the app (the wire shape). */
export type PageConfig = ServedPageConfig;

function str(v: unknown): string {
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '';
}

/** Parses the config text leniently: bad JSON or wrong types yield defaults rather than a blank page. */
export function parsePageConfig(text: string | null | undefined): PageConfig {
  let raw: Record<string, unknown> = {};
  if (text) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) raw = parsed as Record<string, unknown>;
    } catch {
      raw = {};
    }
  }
  const orgId = str(raw.orgId);
  const config: PageConfig = {
    appId: str(raw.appId),
    orgId,
    env: str(raw.env) || DEFAULT_ENV,
    host: str(raw.host),
    organizationId: str(raw.organizationId) || orgId,
  };
  const csrf = str(raw.csrfToken);
  if (csrf) config.csrfToken = csrf;
  const signIn = parseSignIn(raw.signIn);
  if (signIn) config.signIn = signIn;
  const bootstrap = parseBootstrap(raw.bootstrap);
  if (bootstrap) config.bootstrap = bootstrap;
  return config;
}

// The known values, keyed so the compiler notices a kind or provider added to schemas/sign-in.ts (a web file takes
// only types from there: its values would bring TypeBox into the bundle).
const DIRECTORY_KIND: Record<DirectoryKind, true> = { ldap: true, ad: true };
const OAUTH_PROVIDER: Record<OAuthProvider, true> = { dingtalk: true, lark: true, wecom: true };

/** The known entries of a list, each once, in the service's order; anything else is dropped. */
function known<T extends string>(raw: unknown, allowed: Record<T, true>): T[] {
  if (!Array.isArray(raw)) return [];
  return [...new Set(raw.filter((v): v is T => typeof v === 'string' && Object.hasOwn(allowed, v)))];
}

/**
 * The login page's extra sign-in methods, kept to the directory kinds and providers this bundle knows (a newer
 * service may name more; a tab or button for an unknown one could not work).
 */
export function parseSignIn(raw: unknown): SignInMethods | undefined {
  if (!isRecord(raw)) return undefined;
  return { directories: known(raw.directories, DIRECTORY_KIND), oauth: known(raw.oauth, OAUTH_PROVIDER) };
}

/**
 * The bootstrap part, checked just enough that the app can rely on it; anything malformed drops that part (the app
 * then makes the call it would have made without it), never the page.
 */
export function parseBootstrap(raw: unknown): PageBootstrap | undefined {
  if (!isRecord(raw) || (raw.locale !== 'zh_CN' && raw.locale !== 'en_US')) return undefined;
  const boot: PageBootstrap = { locale: raw.locale };
  // A catalogue is ICU strings or their compiled syntax trees (what the build writes).
  if (isRecord(raw.messages) && Object.values(raw.messages).every((v) => typeof v === 'string' || Array.isArray(v))) {
    boot.messages = raw.messages as NonNullable<PageBootstrap['messages']>;
  }
  const me = raw.me;
  if (isRecord(me) && typeof me.id === 'string' && typeof me.username === 'string') {
    boot.me = me as unknown as NonNullable<PageBootstrap['me']>;
    const org = raw.organization;
    boot.organization =
      isRecord(org) && typeof org.id === 'string' && typeof org.name === 'string'
        ? (org as unknown as NonNullable<PageBootstrap['organization']>)
        : null;
    // The second factor's deadline is a date the shell formats: anything but a number is no deadline.
    if (boot.organization && typeof boot.organization.second_factor_deadline !== 'number')
      delete boot.organization.second_factor_deadline;
    boot.apps = Array.isArray(raw.apps)
      ? raw.apps.filter(
          (a): a is NonNullable<PageBootstrap['apps']>[number] => isRecord(a) && typeof a.identity === 'string',
        )
      : null;
    boot.organizationError = typeof raw.organizationError === 'string' ? raw.organizationError : null;
    if (typeof raw.refusedOrganizationName === 'string') boot.refusedOrganizationName = raw.refusedOrganizationName;
  }
  // Each plugin checks its own part (StoreCore.pageData); a page without a session may have some too (sign-in).
  if (isRecord(raw.plugins)) boot.plugins = raw.plugins;
  return boot;
}

/** Reads the page's config script; a missing tag or document gives the defaults. */
export function readPageConfig(
  doc: Document | undefined = typeof document === 'undefined' ? undefined : document,
): PageConfig {
  return parsePageConfig(doc?.getElementById(PAGE_CONFIG_ELEMENT_ID)?.textContent);
}

/**
 * The page configuration a render is for, when it is not the document's: the server renders a page for a request's
 * configuration, where there is no document to read. Below no provider, the document's is read.
 */
export const PageConfigContext = createContext<PageConfig | null>(null);

/** The page configuration, read once per component (it does not change while the page shows). */
export function usePageConfig(): PageConfig {
  const given = useContext(PageConfigContext);
  const [config] = useState(() => given ?? readPageConfig());
  return config;
}
