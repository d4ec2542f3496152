import { runInAction } from 'mobx';
import { errorCodeOf, type RequestClient, type RequestError } from '../../src/core/request';
import { failureOf, type ActionResult, type Failure } from '../../src/core/stores/failure';
import { annotate, ResourceStore, SectionStore } from '../../src/core/stores/resource';
import type { StoreFactory } from '../../src/core/stores/root';
import { securityApi } from './api';
import { CredentialHealthStore } from './health-store';
import { RECOVERY_CODES_LOW } from '../../schemas/second-factor-limits';
import type {
  FactorAdded,
  HistoryEntry,
  HistoryGroup,
  NotMeResult,
  Passkey,
  RegistrationOptions,
  RegistrationResponse,
  SessionInfo,
  SessionList,
  TotpSetup,
  TrustedBrowserList,
  TwoFactorState,
} from './contract';

/** The API of the section, as the stores hold it. */
type SecurityApi = ReturnType<typeof securityApi>;

/** Service error codes the page explains in its own catalogue (the UI language may differ from the service's). */
export const SECURITY_ERROR_MESSAGES: Readonly<Record<string, string>> = {
  SessionNotFound: 'security.sessions.error.notFound',
  SessionIsCurrent: 'security.sessions.error.current',
  TrustedBrowserNotFound: 'security.browsers.error.notFound',
  HistoryCursorInvalid: 'security.history.error.cursor',
  TotpCodeInvalid: 'security.twoFactor.totp.error.wrongCode',
  TotpNotStarted: 'security.twoFactor.totp.error.expired',
  TotpNotFound: 'security.twoFactor.totp.error.notFound',
  PasskeyNotVerified: 'security.twoFactor.passkeys.error.notVerified',
  PasskeyLimit: 'security.twoFactor.passkeys.error.limit',
  PasskeyNotFound: 'security.twoFactor.passkeys.error.notFound',
  RecoveryCodesNoFactor: 'security.twoFactor.codes.error.noFactor',
};

/** What the page shows when an action fails with nothing more specific to say. */
export const SECURITY_FALLBACKS = {
  endSession: 'security.sessions.error.endFailed',
  endOthers: 'security.sessions.error.endOthersFailed',
  forget: 'security.browsers.error.forgetFailed',
  loadMore: 'security.history.error.loadMoreFailed',
  notMe: 'security.notMe.error.failed',
  startTotp: 'security.twoFactor.totp.error.startFailed',
  confirmTotp: 'security.twoFactor.totp.error.confirmFailed',
  removeTotp: 'security.twoFactor.totp.error.removeFailed',
  addPasskey: 'security.twoFactor.passkeys.error.addFailed',
  renamePasskey: 'security.twoFactor.passkeys.error.renameFailed',
  removePasskey: 'security.twoFactor.passkeys.error.removeFailed',
  newCodes: 'security.twoFactor.codes.error.failed',
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

/** What the browser's WebAuthn helper (`@simplewebauthn/browser`) offers the page: creating a passkey. */
export interface WebAuthnBrowser {
  /** Asks the browser (and the authenticator) for a new credential; rejects when refused, cancelled or timed out. */
  startRegistration(options: { optionsJSON: never }): Promise<unknown>;
}

/**
 * Loads `@simplewebauthn/browser` when a passkey is first added, so the page's first bytes do not carry it (its own
 * chunk); tests mock the module.
 */
const loadWebAuthn = (): Promise<WebAuthnBrowser> =>
  import(/* webpackChunkName: "webauthn" */ '@simplewebauthn/browser') as Promise<WebAuthnBrowser>;

/** Why the browser did not make a passkey, in the page's words (the WebAuthn error names and helper codes). */
export function webAuthnFailure(error: unknown): Failure {
  const e = (error ?? {}) as { name?: unknown; code?: unknown; cause?: { name?: unknown } };
  const name = typeof e.cause?.name === 'string' ? e.cause.name : e.name;
  if (e.code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED' || name === 'InvalidStateError')
    return { id: 'security.twoFactor.passkeys.error.registered' };
  // Cancelled, timed out, or refused by the person or the platform (WebAuthn says no more on purpose).
  if (name === 'NotAllowedError' || name === 'AbortError' || e.code === 'ERROR_CEREMONY_ABORTED')
    return { id: 'security.twoFactor.passkeys.error.cancelled' };
  if (name === 'SecurityError' || e.code === 'ERROR_INVALID_DOMAIN' || e.code === 'ERROR_INVALID_RP_ID')
    return { id: 'security.twoFactor.passkeys.error.origin' };
  return { id: 'security.twoFactor.passkeys.error.browser' };
}

/** Whether this browser can create passkeys at all (WebAuthn present; an old browser or an insecure page lacks it). */
export function browserSupportsPasskeys(): boolean {
  return typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';
}

const NO_FACTORS: TwoFactorState = { totp: null, passkeys: [], recovery_codes_left: 0, required_by: null };

/**
 * The account's second factors and their changes: the authenticator app (set up with a secret shown once, confirmed
 * by a first code), passkeys and security keys (made by the browser), and the recovery codes (shown once, when the
 * first factor is added and when made again). Every change needs a recent proof: the core client asks for it.
 */
export class TwoFactorStore extends ResourceStore<TwoFactorState> {
  /** The app's new secret waiting for its first code (shown in the setup dialog); null when none waits. */
  setup: TotpSetup | null = null;
  /** Recovery codes to show once (after the first factor or a regeneration) until their owner says they are saved. */
  codes: string[] | null = null;
  /** A factor changed in this visit: the page offers to sign out the other sessions until that is done or declined. */
  changed = false;
  /** Setting up the app is being started (the secret is asked for). */
  starting = false;
  /** The app's first code is being checked. */
  confirming = false;
  /** The app is being removed. */
  removingTotp = false;
  /** A passkey is being made (the browser's prompt is open, or its answer is being stored). */
  adding = false;
  /** The id of the passkey being renamed or removed; null when none is. */
  editing: string | null = null;
  /** New recovery codes are being made. */
  regenerating = false;

  constructor(
    private readonly api: SecurityApi,
    /** Called after each change, so the history shows it. */
    private readonly onChange: () => void = () => {},
    private readonly webAuthn: () => Promise<WebAuthnBrowser> = loadWebAuthn,
  ) {
    super({ empty: NO_FACTORS, loading: true });
    annotate<TwoFactorStore>(this, {
      observable: [
        'setup',
        'codes',
        'changed',
        'starting',
        'confirming',
        'removingTotp',
        'adding',
        'editing',
        'regenerating',
      ],
      action: [
        'startTotp',
        'cancelTotp',
        'confirmTotp',
        'removeTotp',
        'addPasskey',
        'renamePasskey',
        'removePasskey',
        'newRecoveryCodes',
        'codesSaved',
        'dismissChanged',
      ],
      computed: ['enabled', 'passkeys', 'codesLow'],
    });
  }

  /** The account asks for a second factor at sign-in: it has the app or a passkey (recovery codes alone are none). */
  get enabled(): boolean {
    return this.data.totp !== null || this.data.passkeys.length > 0;
  }

  /** The passkeys and security keys, as the service lists them. */
  get passkeys(): Passkey[] {
    return this.data.passkeys;
  }

  /** Few recovery codes are left (the page warns): at most `RECOVERY_CODES_LOW`, while two-factor is on. */
  get codesLow(): boolean {
    return this.enabled && this.data.recovery_codes_left <= RECOVERY_CODES_LOW;
  }

  /** The account's factors as the service lists them. */
  protected fetch() {
    return this.api.twoFactor();
  }

  /** Fetches the state again without the loading flag (after a refusal saying the list was out of date). */
  private async refresh(): Promise<void> {
    const [error, data] = await this.api.twoFactor();
    if (!error) runInAction(() => (this.data = data));
  }

  /** A factor was added: the new state, the recovery codes to show once (first factor), the offer to sign out. */
  private added(answer: FactorAdded): void {
    this.data = answer.state;
    if (answer.recovery_codes?.length) this.codes = answer.recovery_codes;
    this.changed = true;
  }

  /** A factor was removed: the new state (without recovery codes after the last one), the offer to sign out. */
  private removed(state: TwoFactorState): void {
    this.data = state;
    this.changed = true;
  }

  /**
   * Asks for a new app secret; the setup dialog shows it while `setup` holds it. With an app already set up this is
   * changing it: the old one keeps working until the new one is confirmed.
   */
  async startTotp(): Promise<ActionResult> {
    return this.saveWith(this.api.startTotp(), {
      busy: (on) => (this.starting = on),
      failure: failure(SECURITY_FALLBACKS.startTotp),
      apply: (answer) => (this.setup = answer),
    });
  }

  /** Closes the setup without a code: the secret is forgotten here (the service never confirmed it). */
  cancelTotp(): void {
    this.setup = null;
  }

  /** Confirms the waiting secret with the app's code; on success the app is a factor and the secret is forgotten. */
  async confirmTotp(code: string): Promise<ActionResult> {
    const r = await this.saveWith(this.api.confirmTotp(code), {
      busy: (on) => (this.confirming = on),
      failure: failure(SECURITY_FALLBACKS.confirmTotp),
      apply: (answer) => {
        this.setup = null;
        this.added(answer);
      },
    });
    if (r.ok) this.onChange();
    return r;
  }

  /** Removes the authenticator app (refused while it is the last factor and an organisation requires one). */
  async removeTotp(): Promise<ActionResult> {
    const r = await this.saveWith(this.api.removeTotp(), {
      busy: (on) => (this.removingTotp = on),
      failure: (error) => {
        if (gone(error, 'TotpNotFound')) void this.refresh();
        return failure(SECURITY_FALLBACKS.removeTotp)(error);
      },
      apply: (state) => this.removed(state),
    });
    if (r.ok) this.onChange();
    return r;
  }

  /**
   * Adds a passkey or security key: options from the service (a single-use challenge), the browser's prompt
   * (`startRegistration`), then the browser's answer stored under `name`. A refused or cancelled prompt says why.
   */
  async addPasskey(name: string): Promise<ActionResult> {
    if (this.adding) return { ok: false };
    runInAction(() => (this.adding = true));
    try {
      const [error, options] = await this.api.passkeyOptions();
      if (error) return { ok: false, failure: failure(SECURITY_FALLBACKS.addPasskey)(error) };
      let response: RegistrationResponse;
      try {
        const { startRegistration } = await this.webAuthn();
        response = (await startRegistration({
          optionsJSON: options satisfies RegistrationOptions as never,
        })) as RegistrationResponse;
      } catch (e) {
        return { ok: false, failure: webAuthnFailure(e) };
      }
      const r = await this.saveWith(this.api.addPasskey({ name, response }), {
        busy: () => {},
        failure: failure(SECURITY_FALLBACKS.addPasskey),
        apply: (answer) => this.added(answer),
      });
      if (r.ok) this.onChange();
      return r;
    } finally {
      runInAction(() => (this.adding = false));
    }
  }

  /** Renames a passkey (the service cleans the name); one removed meanwhile leaves the list. */
  async renamePasskey(id: string, name: string): Promise<ActionResult> {
    return this.saveWith(this.api.renamePasskey(id, name), {
      busy: (on) => (this.editing = on ? id : null),
      failure: (error) => {
        if (gone(error, 'PasskeyNotFound')) void this.refresh();
        return failure(SECURITY_FALLBACKS.renamePasskey)(error);
      },
      apply: (renamed) => {
        this.data = { ...this.data, passkeys: this.data.passkeys.map((p) => (p.id === id ? renamed : p)) };
      },
    });
  }

  /** Removes a passkey; one removed meanwhile leaves the list too. */
  async removePasskey(id: string): Promise<ActionResult> {
    const r = await this.saveWith(this.api.removePasskey(id), {
      busy: (on) => (this.editing = on ? id : null),
      failure: (error) => {
        if (gone(error, 'PasskeyNotFound')) void this.refresh();
        return failure(SECURITY_FALLBACKS.removePasskey)(error);
      },
      apply: (state) => this.removed(state),
    });
    if (r.ok) this.onChange();
    return r;
  }

  /** Makes ten new recovery codes (the old ones stop working) and holds them for the one-time display. */
  async newRecoveryCodes(): Promise<ActionResult> {
    const r = await this.saveWith(this.api.newRecoveryCodes(), {
      busy: (on) => (this.regenerating = on),
      failure: failure(SECURITY_FALLBACKS.newCodes),
      apply: (answer) => {
        this.codes = answer.codes;
        this.data = { ...this.data, recovery_codes_left: answer.codes.length };
        this.changed = true;
      },
    });
    if (r.ok) this.onChange();
    return r;
  }

  /** Their owner saved the codes: they leave the page (only their hashes stay on the service). */
  codesSaved(): void {
    this.codes = null;
  }

  /** The offer to sign out the other sessions was taken or declined. */
  dismissChanged(): void {
    this.changed = false;
  }
}

/**
 * The security section: two-factor authentication, sessions, credential health, trusted browsers, history, and "this
 * wasn't me" over all of them.
 */
export class SecurityStore extends SectionStore {
  /** Where the account is signed in. */
  readonly sessions: SessionsStore;
  /** The browsers the lockout trusts. */
  readonly browsers: TrustedBrowsersStore;
  /** The account's history. */
  readonly history: HistoryStore;
  /** The account's second factors. */
  readonly twoFactor: TwoFactorStore;
  /** The account's credentials and sessions with their health marks. */
  readonly health: CredentialHealthStore;
  private readonly api: SecurityApi;

  constructor(client: RequestClient) {
    super();
    this.api = securityApi(client);
    this.sessions = new SessionsStore(this.api);
    this.browsers = new TrustedBrowsersStore(this.api);
    this.history = new HistoryStore(this.api);
    this.twoFactor = new TwoFactorStore(this.api, () => void this.history.load());
    this.health = new CredentialHealthStore(
      this.api,
      () => void Promise.all([this.sessions.load(), this.history.load()]),
    );
    annotate<SecurityStore>(this, { action: ['notMe'] });
  }

  /** Loads the parts side by side; each says on its own whether it failed. */
  async load(): Promise<void> {
    await Promise.all([
      this.twoFactor.load(),
      this.sessions.load(),
      this.health.load(),
      this.browsers.load(),
      this.history.load(),
    ]);
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
    await Promise.all([this.sessions.load(), this.health.load(), this.history.load()]);
    return { ok: true, result };
  }
}

/** Built when the section first asks for it (`useStore('security')`). */
const createSecurityStore: StoreFactory<SecurityStore> = (core) => new SecurityStore(core.client);
export default createSecurityStore;
