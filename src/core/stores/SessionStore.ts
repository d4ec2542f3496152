import { makeAutoObservable, runInAction } from 'mobx';
import { LOCALE_COOKIE, localeTag } from '../../../schemas/locale';
import { computeAccess, type AccessFlags } from '../access';
import { edition, type Locale } from '../edition';
import type { RequestClient } from '../request';
import type { Me } from '../../../schemas/session';
import { sessionApi } from './session-api';

/** Who is signed in, what their organisation has installed, and the UI language. */
export class SessionStore {
  /** The signed-in user; null until loaded or when signed out. */
  user: Me | null = null;
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
  private api: ReturnType<typeof sessionApi>;

  constructor(client: RequestClient, locale: Locale) {
    this.locale = locale;
    this.api = sessionApi(client);
    makeAutoObservable<SessionStore, 'api'>(this, { api: false });
  }

  /** Permission flags from user, installed apps and edition; recomputed when any changes. */
  get access(): AccessFlags {
    return computeAccess({ user: this.user, installedApps: this.installedApps, edition });
  }

  /** Loads the user, then the organisation's apps; loading stops on success and on failure. */
  async load(): Promise<void> {
    this.loading = true;
    this.failed = false;
    const [meError, me] = await this.api.me();
    if (meError) {
      runInAction(() => {
        this.user = null;
        this.installedApps = [];
        this.signedOut = meError.status === 401;
        this.failed = meError.status !== 401;
        this.loading = false;
      });
      return;
    }
    const [appsError, apps] = await this.api.installedApps();
    runInAction(() => {
      this.user = me;
      this.signedOut = false;
      this.installedApps = appsError ? [] : apps.results.map((a) => a.identity);
      this.failed = !!appsError;
      this.loading = false;
    });
  }

  /** Switches the UI language at once and remembers it in the locale cookie for a year. */
  setLocale(locale: Locale): void {
    this.locale = locale;
    document.cookie = `${LOCALE_COOKIE}=${locale}; path=/; max-age=31536000; SameSite=Lax`;
    document.documentElement.lang = localeTag(locale, 'html');
  }
}
