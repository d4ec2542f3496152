import { runInAction } from 'mobx';
import { errorCodeOf, type RequestClient, type RequestError } from '../../src/core/request';
import { failureOf, type ActionResult, type Failure } from '../../src/core/stores/failure';
import { annotate, ResourceStore, SectionStore } from '../../src/core/stores/resource';
import type { StoreFactory } from '../../src/core/stores/root';
import { securityApi } from './api';
import type { HistoryEntry, HistoryGroup, NotMeResult, SessionInfo, SessionList, TrustedBrowserList } from './contract';

/** The API of the section, as the stores hold it. */
type SecurityApi = ReturnType<typeof securityApi>;

/** Service error codes the page explains in its own catalogue (the UI language may differ from the service's). */
export const SECURITY_ERROR_MESSAGES: Readonly<Record<string, string>> = {
  SessionNotFound: 'security.sessions.error.notFound',
  SessionIsCurrent: 'security.sessions.error.current',
  TrustedBrowserNotFound: 'security.browsers.error.notFound',
  HistoryCursorInvalid: 'security.history.error.cursor',
};

/** What the page shows when an action fails with nothing more specific to say. */
export const SECURITY_FALLBACKS = {
  endSession: 'security.sessions.error.endFailed',
  endOthers: 'security.sessions.error.endOthersFailed',
  forget: 'security.browsers.error.forgetFailed',
  loadMore: 'security.history.error.loadMoreFailed',
  notMe: 'security.notMe.error.failed',
} as const;

/**
 * The one mapping of a failed action here (a call still refused for want of a proof maps to nothing: the person
 * closed the core's re-authentication dialog, which said what was needed).
 */
const failure = (fallbackId: string) => (error: RequestError) => failureOf(error, SECURITY_ERROR_MESSAGES, fallbackId);

/** Whether a failed call says the thing it named is already gone (so the list drops it too). */
const gone = (error: RequestError, code: string) => error.status === 404 && errorCodeOf(error) === code;

/** Outcome of "sign out all other sessions": how many ended, when it went through. */
export type EndOthersResult = { ok: true; ended: number } | { ok: false; failure?: Failure };

/** Outcome of "this wasn't me": what was done, when it went through. */
export type NotMeOutcome = { ok: true; result: NotMeResult } | { ok: false; failure?: Failure };

const NO_SESSIONS: SessionList = { sessions: [], idle_timeout_minutes: 0, absolute_timeout_hours: 0 };

/** The account's live sessions, the timeouts that end them, and ending them. */
export class SessionsStore extends ResourceStore<SessionList> {
  /** The id of the session being ended, so only its button spins; null when none is. */
  ending: string | null = null;
  /** "Sign out all other sessions" is in flight. */
  endingOthers = false;

  constructor(private readonly api: SecurityApi) {
    super({ empty: NO_SESSIONS, loading: true });
    annotate<SessionsStore>(this, {
      observable: ['ending', 'endingOthers'],
      action: ['end', 'endOthers'],
      computed: ['others'],
    });
  }

  /** Sessions, newest first; empty until loaded and when the fetch fails. */
  get sessions(): SessionInfo[] {
    return this.data.sessions;
  }

  /** The sessions other than the one making the calls (those "sign out all others" ends). */
  get others(): SessionInfo[] {
    return this.data.sessions.filter((s) => !s.current);
  }

  /** The account's sessions as the service lists them. */
  protected fetch() {
    return this.api.sessions();
  }

  private drop(keep: (s: SessionInfo) => boolean): void {
    this.data = { ...this.data, sessions: this.data.sessions.filter(keep) };
  }

  /** Ends another session; one that had already ended leaves the list too (and the page says so). */
  async end(id: string): Promise<ActionResult> {
    const r = await this.saveWith(this.api.endSession(id), {
      busy: (on) => (this.ending = on ? id : null),
      failure: (error) => {
        if (gone(error, 'SessionNotFound')) runInAction(() => this.drop((s) => s.id !== id));
        return failure(SECURITY_FALLBACKS.endSession)(error);
      },
      apply: () => this.drop((s) => s.id !== id),
    });
    return r;
  }

  /** Ends every session but this one; the list keeps this one only. */
  async endOthers(): Promise<EndOthersResult> {
    let ended = 0;
    const r = await this.saveWith(this.api.endOthers(), {
      busy: (on) => (this.endingOthers = on),
      failure: failure(SECURITY_FALLBACKS.endOthers),
      apply: (answer) => {
        ended = answer.ended;
        this.drop((s) => s.current);
      },
    });
    return r.ok ? { ok: true, ended } : r;
  }
}

/** The browsers the smart lockout trusts for the account, and forgetting them. */
export class TrustedBrowsersStore extends ResourceStore<TrustedBrowserList> {
  /** The id of the browser being forgotten; null when none is. */
  forgetting: string | null = null;

  constructor(private readonly api: SecurityApi) {
    super({ empty: { browsers: [] }, loading: true });
    annotate<TrustedBrowsersStore>(this, { observable: ['forgetting'], action: ['forget'] });
  }

  /** Trusted browsers, most recently used first; empty until loaded and when the fetch fails. */
  get browsers(): TrustedBrowserList['browsers'] {
    return this.data.browsers;
  }

  /** The trusted browsers as the service lists them. */
  protected fetch() {
    return this.api.trustedBrowsers();
  }

  /** Forgets a browser; one already forgotten leaves the list too (and the page says so). */
  async forget(id: string): Promise<ActionResult> {
    const drop = () => (this.data = { browsers: this.data.browsers.filter((b) => b.id !== id) });
    return this.saveWith(this.api.forgetBrowser(id), {
      busy: (on) => (this.forgetting = on ? id : null),
      failure: (error) => {
        if (gone(error, 'TrustedBrowserNotFound')) runInAction(drop);
        return failure(SECURITY_FALLBACKS.forget)(error);
      },
      apply: drop,
    });
  }
}

/** The account's history: newest first, filtered by a group of kinds, a keyset page at a time. */
export class HistoryStore extends SectionStore {
  /** Entries loaded so far, newest first (empty after a failed load). */
  entries: HistoryEntry[] = [];
  /** The cursor of the next page; null on the last one. */
  next: string | null = null;
  /** The group of kinds shown; null for every kind. */
  group: HistoryGroup | null = null;
  /** "Load more" is in flight (the entries stay as they are meanwhile). */
  loadingMore = false;
  /** Counts the first-page loads, so the answer of a load a newer one replaced is dropped. */
  private generation = 0;

  constructor(private readonly api: SecurityApi) {
    super({ loading: true });
    annotate<HistoryStore, 'generation'>(this, {
      observable: ['entries', 'next', 'group', 'loadingMore'],
      action: ['load', 'loadMore', 'setGroup'],
    });
  }

  /** Where "Export CSV" downloads the history of the group shown (the session cookie authenticates the GET). */
  get exportUrl(): string {
    return this.api.historyExportUrl(this.group);
  }

  /** Loads the first page of the group shown; on failure the list is empty and loading stops. */
  async load(): Promise<void> {
    const generation = ++this.generation;
    await this.loadWith(
      this.api.history(this.group, null),
      (page) => {
        if (generation !== this.generation) return;
        this.entries = page.entries;
        this.next = page.next;
      },
      () => {
        if (generation !== this.generation) return;
        this.entries = [];
        this.next = null;
      },
    );
  }

  /** Appends the next page; a cursor the service no longer takes starts again from the first page. */
  async loadMore(): Promise<ActionResult> {
    const cursor = this.next;
    if (!cursor || this.loadingMore || this.loading) return { ok: true };
    const generation = this.generation;
    let restart = false;
    const r = await this.saveWith(this.api.history(this.group, cursor), {
      busy: (on) => (this.loadingMore = on),
      failure: (error) => {
        restart = errorCodeOf(error) === 'HistoryCursorInvalid';
        return failure(SECURITY_FALLBACKS.loadMore)(error);
      },
      apply: (page) => {
        // A reload started meanwhile owns the list now.
        if (generation !== this.generation) return;
        const known = new Set(this.entries.map((e) => e.id));
        this.entries = [...this.entries, ...page.entries.filter((e) => !known.has(e.id))];
        this.next = page.next;
      },
    });
    if (restart) await this.load();
    return r;
  }

  /** Shows one group of kinds (null: all), from the first page. */
  async setGroup(group: HistoryGroup | null): Promise<void> {
    if (group === this.group) return;
    this.group = group;
    await this.load();
  }
}

/** The security section: sessions, trusted browsers, history, and "this wasn't me" over all of them. */
export class SecurityStore extends SectionStore {
  /** Where the account is signed in. */
  readonly sessions: SessionsStore;
  /** The browsers the lockout trusts. */
  readonly browsers: TrustedBrowsersStore;
  /** The account's history. */
  readonly history: HistoryStore;
  private readonly api: SecurityApi;

  constructor(client: RequestClient) {
    super();
    this.api = securityApi(client);
    this.sessions = new SessionsStore(this.api);
    this.browsers = new TrustedBrowsersStore(this.api);
    this.history = new HistoryStore(this.api);
    annotate<SecurityStore>(this, { action: ['notMe'] });
  }

  /** Loads the three lists side by side; each says on its own whether it failed. */
  async load(): Promise<void> {
    await Promise.all([this.sessions.load(), this.browsers.load(), this.history.load()]);
  }

  /**
   * "This wasn't me": ends the other sessions, revokes the credentials, optionally locks the account; then the lists
   * show what is left and the history what was done.
   */
  async notMe(lock: boolean): Promise<NotMeOutcome> {
    let result: NotMeResult | undefined;
    const r = await this.saveWith(this.api.notMe({ lock }), {
      failure: failure(SECURITY_FALLBACKS.notMe),
      apply: (answer) => (result = answer),
    });
    if (!r.ok || !result) return r.ok ? { ok: false } : r;
    await Promise.all([this.sessions.load(), this.history.load()]);
    return { ok: true, result };
  }
}

/** Built when the section first asks for it (`useStore('security')`). */
const createSecurityStore: StoreFactory<SecurityStore> = (core) => new SecurityStore(core.client);
export default createSecurityStore;
