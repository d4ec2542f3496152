import { makeAutoObservable, runInAction } from 'mobx';
import { DEFAULT_COLOR_SCHEME, isColorScheme, type ColorScheme } from '../../../schemas/color-scheme';
import { LOCALE_COOKIE, localeTag } from '../../../schemas/locale';
import { computeAccess, type AccessFlags } from '../access';
import { edition, type Locale } from '../edition';
import { writeCookie } from '../i18n/locale';
import { organizationNoticeOf, organizationNoticeOfCode, type OrganizationNotice } from '../organization';
import type { PageBootstrap } from '../../../schemas/page-config';
import type { RequestClient } from '../request';
import type { Me, Organization } from '../../../schemas/session';
import { sessionApi } from './session-api';

/** Who is signed in, which organisation they work in and what it has installed, and the UI language. */
export class SessionStore {
  /** The signed-in user; null until loaded or when signed out. */
  user: Me | null = null;
  /** The current organisation's name and logo for the header; null without one or when it could not be read. */
  organization: Organization | null = null;
  /**
   * Why the organisation's sections are out of reach (no organisation, IP whitelist, licence or order expired, lost
   * membership); null when all is well. Personal sections keep working: it is a state the shell explains, not a failure.
   */
  organizationNotice: OrganizationNotice | null = null;
  /** The refusing organisation's name when the page named it (a missing second factor); null when not known. */
  organizationNoticeName: string | null = null;
  /** App identities installed in the current organisation. */
  installedApps: string[] = [];
  /** True until the first load settles, so the shell shows nothing half-known. */
  loading = true;
  /** The user or the app permissions could not be loaded (not a sign-out): the shell offers a retry. */
  failed = false;
  /** The service said nobody is signed in. */
  signedOut = false;
  /** The language the UI shows. */
  locale: Locale;
  /**
   * The theme the account chose (kept on the account, read from the page or `me`); `system` when signed out or never
   * chosen. Kept through a failed reload, so a network error never flips the theme.
   */
  colorScheme: ColorScheme = DEFAULT_COLOR_SCHEME;
  private api: ReturnType<typeof sessionApi>;
  /** Set while the state came with the page: the first `load()` then has nothing to fetch. */
  private fromPage = false;

  constructor(client: RequestClient, locale: Locale, bootstrap?: PageBootstrap) {
    this.locale = locale;
    this.api = sessionApi(client);
    makeAutoObservable<SessionStore, 'api' | 'fromPage'>(this, { api: false, fromPage: false });
    if (bootstrap) this.applyBootstrap(bootstrap);
  }

  /**
   * Takes the state the service put in the page (same rules as the calls): the first render shows the user, the
   * organisation and the menus without waiting. A page without `me` was served to nobody signed in.
   */
  private applyBootstrap(boot: PageBootstrap): void {
    this.fromPage = true;
    this.loading = false;
    if (!boot.me) {
      this.signedOut = true;
      return;
    }
    const orgId = boot.me.organization_id ?? '';
    this.api.setTenant(orgId);
    this.user = boot.me;
    this.colorScheme = schemeOf(boot.me);
    this.organization = boot.organization ?? null;
    this.installedApps = (boot.apps ?? []).map((a) => a.identity);
    const notice = orgId ? organizationNoticeOfCode(boot.organizationError) : 'no-org';
    this.organizationNotice = notice ?? null;
    this.organizationNoticeName = (notice && boot.refusedOrganizationName) || null;
    // An organisation error that is not a policy notice is a failure the shell offers to retry.
    this.failed = !!boot.organizationError && !notice;
    if (this.failed) this.fromPage = false;
  }

  /** Permission flags from user, installed apps and edition; recomputed when any changes. */
  get access(): AccessFlags {
    return computeAccess({ user: this.user, installedApps: this.installedApps, edition });
  }

  /**
   * Loads the user, then the current organisation's apps and name; loading stops on success and on failure. The
   * organisation of `me` becomes the `x-tenant-id` of later calls, so a switch (here or in another tab) is followed.
   */
  async load(): Promise<void> {
    if (this.fromPage) {
      this.fromPage = false;
      return;
    }
    this.loading = true;
    this.failed = false;
    const [meError, me] = await this.api.me();
    if (meError) {
      runInAction(() => {
        this.user = null;
        this.organization = null;
        this.organizationNotice = null;
        this.organizationNoticeName = null;
        this.installedApps = [];
        this.signedOut = meError.status === 401;
        this.failed = meError.status !== 401;
        if (this.signedOut) this.colorScheme = DEFAULT_COLOR_SCHEME;
        this.loading = false;
      });
      return;
    }
    const orgId = me.organization_id ?? '';
    this.api.setTenant(orgId);
    // No organisation is a state: nothing to ask about apps, the shell explains and personal sections stay.
    const [[appsError, apps], [, organization]] = orgId
      ? await Promise.all([this.api.installedApps(), this.api.organization(orgId)])
      : [[null, { results: [] }] as const, [null, null] as const];
    runInAction(() => {
      this.user = me;
      this.colorScheme = schemeOf(me);
      this.signedOut = false;
      this.organization = organization ?? null;
      this.installedApps = appsError ? [] : apps.results.map((a) => a.identity);
      const notice = orgId ? (appsError ? organizationNoticeOf(appsError) : undefined) : 'no-org';
      this.organizationNotice = notice ?? null;
      this.organizationNoticeName = null;
      // A policy refusal is explained by its notice; anything else (server, network) offers a retry.
      this.failed = !!appsError && !notice;
      this.loading = false;
    });
  }

  /**
   * Enters the organisation the user just switched to: later calls carry it at once, then user, apps and name
   * reload, so the header and the sections follow without a page reload.
   */
  async enterOrganization(id: string): Promise<void> {
    this.api.setTenant(id);
    await this.load();
  }

  /** Shows the theme the account just saved (the profile store calls this after the service took it). */
  setColorScheme(colorScheme: ColorScheme): void {
    this.colorScheme = colorScheme;
    if (this.user) this.user.colorScheme = colorScheme;
  }

  /** Switches the UI language at once and remembers it in the locale cookie for a year. */
  setLocale(locale: Locale): void {
    this.locale = locale;
    writeCookie(document, LOCALE_COOKIE, locale);
    document.documentElement.lang = localeTag(locale, 'html');
  }
}

/** The account's scheme from a `me` answer; `system` for one without a valid value (a page from an older service). */
function schemeOf(me: Me): ColorScheme {
  const v: unknown = me.colorScheme;
  return isColorScheme(v) ? v : DEFAULT_COLOR_SCHEME;
}
