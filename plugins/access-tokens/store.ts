import { runInAction } from 'mobx';
import { CLIENT_STATUS, RequestError, type RequestClient, type RequestResult } from '../../src/core/request';
import { failureOf, type ActionResult } from '../../src/core/stores/failure';
import { annotate, SectionStore } from '../../src/core/stores/resource';
import type { StoreFactory } from '../../src/core/stores/root';
import { accessTokensApi } from './api';
import type {
  AccessToken,
  LegacyTokensAnswer,
  TokenBody,
  TokenPage,
  TokenRecreateBody,
  TokenRegenerateBody,
  TokenRenewalAnswer,
  TokenScope,
  TokenUpdateBody,
} from './contract';
import { TOKEN_PAGE_SIZE_DEFAULT } from './limits';
import { hasStrings, isLastUse, isListOf, isRecord, isStringOrNull } from '../../src/core/shape';

/** Local-storage key of the remembered page size. */
export const PAGE_SIZE_KEY = 'access-tokens.pageSize';
/** Page size before the person picks one (the page the service brings has it too). */
export const DEFAULT_PAGE_SIZE = TOKEN_PAGE_SIZE_DEFAULT;
/** Page sizes the list offers. */
export const PAGE_SIZE_OPTIONS = [10, 20, 50, 100];

/** The page's message per action when a save fails (a 4xx adds the service's reason after it). */
export const FAILURE_MESSAGES = {
  create: 'access-tokens.result.createFailed',
  update: 'access-tokens.result.updateFailed',
  remove: 'access-tokens.result.deleteFailed',
  regenerate: 'access-tokens.result.regenerateFailed',
  recreate: 'access-tokens.result.recreateFailed',
} as const;

const failure = (fallbackId: string) => (error: RequestError) => failureOf(error, {}, fallbackId);

function readPageSize(): number {
  try {
    const v = Number(globalThis.localStorage?.getItem(PAGE_SIZE_KEY));
    return PAGE_SIZE_OPTIONS.includes(v) ? v : DEFAULT_PAGE_SIZE;
  } catch {
    return DEFAULT_PAGE_SIZE;
  }
}

function writePageSize(size: number): void {
  try {
    globalThis.localStorage?.setItem(PAGE_SIZE_KEY, String(size));
  } catch {
    // storage may be unavailable (private mode); the size then lasts for this visit only
  }
}

/** What the store needs beyond the client. */
export interface AccessTokensStoreOptions {
  /** Legacy ("v1") screen: every token fetched at once and paged here, through the legacy calls. */
  legacy?: boolean;
  /** The signed-in user's id (the legacy list asks with it). */
  userId?: () => string | undefined;
  /** The UI language, so the scope catalogue is described in it. */
  locale?: () => string | undefined;
}

/** State and actions of the personal-access-token section. */
export class AccessTokensStore extends SectionStore {
  /** The current page of tokens (empty after a failed load). */
  list: AccessToken[] = [];
  /**
   * Pagination: current page, total count, page size. The size the browser remembers (local storage) is taken at the
   * first load, not before: a page the service rendered has the default size, and the browser's first render (which
   * hydrates it) must show the same.
   */
  page = { current: 1, total: 0, pageSize: DEFAULT_PAGE_SIZE };
  /** Whether expired tokens are listed (default true). */
  includeExpired = true;
  /** The value of the token just created, shown once until copied or the screen is left. */
  visibleToken: string | null = null;
  /** What the last regeneration or re-creation changed (the old secret's end, grants left out), for its notice. */
  lastRenewal: Pick<TokenRenewalAnswer, 'previous_stops_at' | 'dropped_scopes'> | null = null;
  /** The scope catalogue, loaded on demand when a drawer opens. */
  scopes: TokenScope[] = [];
  /** A scope call is in flight. */
  scopesLoading = false;
  /** The last scope call failed (the drawer offers a retry). */
  scopesFailed = false;
  /** Legacy ("v1") screen: every token is fetched at once and paged here, through the legacy calls. */
  readonly legacy: boolean;
  private all: AccessToken[] = [];
  private readonly api: ReturnType<typeof accessTokensApi>;
  private readonly userId: () => string | undefined;
  private readonly locale: () => string | undefined;
  private scopesLocale: string | undefined;
  private rememberedSizeTaken = false;

  constructor(client: RequestClient, options: AccessTokensStoreOptions = {}) {
    super();
    this.api = accessTokensApi(client);
    this.legacy = !!options.legacy;
    this.userId = options.userId ?? (() => undefined);
    this.locale = options.locale ?? (() => undefined);
    annotate<AccessTokensStore, 'applyLegacyPage'>(this, {
      observable: [
        'list',
        'page',
        'includeExpired',
        'visibleToken',
        'lastRenewal',
        'scopes',
        'scopesLoading',
        'scopesFailed',
      ],
      action: [
        'load',
        'setPage',
        'setIncludeExpired',
        'loadScopes',
        'create',
        'update',
        'remove',
        'regenerate',
        'recreate',
        'tokenCopied',
        'reset',
        'applyLegacyPage',
      ],
    });
  }

  /**
   * Takes the first page as the page brought it (`StoreCore.pageData`), when it is the page this store would ask
   * for (expired tokens included, page 1, the default size): shown at once, and the next `load()` makes no call
   * (unless the browser remembers another size).
   */
  seed(answer: TokenPage): void {
    const { current, pageSize } = this.page;
    const { pages } = answer;
    if (this.legacy || !this.includeExpired || current !== 1) return;
    if (pages.current_page !== 1 || pages.page_size !== pageSize) return;
    this.seedWith(() => {
      this.list = answer.access_tokens;
      this.page.total = pages.total_size;
    });
  }

  /**
   * Loads the current page; on failure the list stays empty and loading stops. Right after `seed`, once, nothing;
   * unless the browser remembers another page size, which the first load takes (from page 1): the brought page still
   * serves when it holds that page whole, else the load asks.
   */
  async load(): Promise<void> {
    const seeded = this.takeSeed();
    const resized = this.takeRememberedSize();
    if (seeded) {
      if (!resized) return;
      const { pageSize, total } = this.page;
      if (pageSize <= this.list.length || this.list.length >= total) {
        this.list = this.list.slice(0, pageSize);
        return;
      }
    }
    if (this.legacy) return this.loadLegacy();
    const { current, pageSize } = this.page;
    const [error] = await this.loadWith(
      this.api.search(this.includeExpired, current, pageSize),
      (result) => {
        this.list = result.access_tokens;
        this.page.total = result.pages.total_size;
      },
      () => {
        this.list = [];
        this.page.total = 0;
      },
    );
    // Deleting the last token of the last page: step back to a page that has tokens.
    if (!error && !this.list.length && this.page.current > 1 && this.page.total > 0) {
      runInAction(() => (this.page.current = Math.ceil(this.page.total / this.page.pageSize)));
      await this.load();
    }
  }

  private async loadLegacy(): Promise<void> {
    const userId = this.userId();
    const call: Promise<RequestResult<LegacyTokensAnswer>> = userId
      ? this.api.legacyList(userId)
      : Promise.resolve([
          new RequestError({ status: CLIENT_STATUS.other, message: 'no user', url: '', method: 'POST' }),
          undefined,
        ]);
    const [error, result] = await this.loadWith(
      call,
      (answer) => {
        this.all = answer.access_tokens;
        if (answer.token_scopes?.length) {
          this.scopes = answer.token_scopes;
          this.scopesLocale = this.locale();
        }
        this.applyLegacyPage();
      },
      () => {
        this.all = [];
        this.applyLegacyPage();
      },
    );
    // The legacy call may fail or carry no catalogue: fetch the scopes on their own then.
    if (error || !result.token_scopes?.length) await this.loadScopes();
  }

  /** Takes the page size the browser remembers, once (from page 1); true when it differs from the one shown. */
  private takeRememberedSize(): boolean {
    if (this.rememberedSizeTaken) return false;
    this.rememberedSizeTaken = true;
    const pageSize = readPageSize();
    if (pageSize === this.page.pageSize) return false;
    this.page = { ...this.page, current: 1, pageSize };
    return true;
  }

  private applyLegacyPage(): void {
    const visible = this.includeExpired ? this.all : this.all.filter((t) => !t.expired);
    const { pageSize } = this.page;
    const last = Math.max(1, Math.ceil(visible.length / pageSize));
    if (this.page.current > last) this.page.current = last;
    this.page.total = visible.length;
    this.list = visible.slice((this.page.current - 1) * pageSize, this.page.current * pageSize);
  }

  /** Goes to a page; a new page size is remembered and restarts at page 1. */
  setPage(current: number, pageSize: number): void {
    if (pageSize !== this.page.pageSize) {
      writePageSize(pageSize);
      this.page = { ...this.page, current: 1, pageSize };
    } else this.page.current = current;
    if (this.legacy) this.applyLegacyPage();
    else void this.load();
  }

  /** Shows or hides expired tokens, from the first page. */
  setIncludeExpired(include: boolean): void {
    this.includeExpired = include;
    this.page.current = 1;
    if (this.legacy) this.applyLegacyPage();
    else void this.load();
  }

  /** Loads the scope tree once per language (again after a failure). */
  async loadScopes(): Promise<void> {
    const locale = this.locale();
    if ((this.scopes.length && this.scopesLocale === locale) || this.scopesLoading) return;
    this.scopesLoading = true;
    this.scopesFailed = false;
    const [error, result] = await this.api.scopes(locale);
    runInAction(() => {
      this.scopesLoading = false;
      this.scopesFailed = !!error;
      this.scopes = error ? [] : result.token_scopes;
      this.scopesLocale = locale;
    });
  }

  /** Creates a token, keeps its value for the one-time display and shows it at the top of the first page. */
  async create(values: TokenBody): Promise<ActionResult> {
    const r = await this.saveWith(this.legacy ? this.api.legacyCreate(values) : this.api.create(values), {
      failure: failure(FAILURE_MESSAGES.create),
      apply: (token) => {
        this.visibleToken = token.token ?? null;
        this.page.current = 1;
      },
    });
    if (r.ok) await this.load();
    return r;
  }

  /** Edits a token (the service refuses expired ones). */
  async update(id: string, values: TokenUpdateBody): Promise<ActionResult> {
    const r = await this.saveWith(this.legacy ? this.api.legacyUpdate(id, values) : this.api.update(id, values), {
      failure: failure(FAILURE_MESSAGES.update),
    });
    if (r.ok) await this.load();
    return r;
  }

  /** Deletes a token after the person confirmed. */
  async remove(id: string): Promise<ActionResult> {
    const r = await this.saveWith(this.legacy ? this.api.legacyRemove(id) : this.api.remove(id), {
      failure: failure(FAILURE_MESSAGES.remove),
    });
    if (r.ok) await this.load();
    return r;
  }

  /** Regenerates a live token: its new value goes to the one-time display, the new token to the top of page 1. */
  async regenerate(id: string, values: TokenRegenerateBody): Promise<ActionResult> {
    return this.renew(this.api.regenerate(id, values), FAILURE_MESSAGES.regenerate);
  }

  /** Re-creates an expired token with its scopes: as `regenerate`, the answer naming what was left out. */
  async recreate(id: string, values: TokenRecreateBody): Promise<ActionResult> {
    return this.renew(this.api.recreate(id, values), FAILURE_MESSAGES.recreate);
  }

  private async renew(call: Promise<RequestResult<TokenRenewalAnswer>>, failId: string): Promise<ActionResult> {
    const r = await this.saveWith(call, {
      failure: failure(failId),
      apply: (answer) => {
        this.visibleToken = answer.access_token.token ?? null;
        this.lastRenewal = { previous_stops_at: answer.previous_stops_at, dropped_scopes: answer.dropped_scopes };
        this.page.current = 1;
      },
    });
    if (r.ok) await this.load();
    return r;
  }

  /** The value was copied: it is not shown again. */
  tokenCopied(): void {
    this.visibleToken = null;
    this.lastRenewal = null;
  }

  /** Leaving the screen forgets the one-time value and the page position. */
  reset(): void {
    this.takeSeed(); // coming back asks
    this.visibleToken = null;
    this.lastRenewal = null;
    this.page.current = 1;
    this.loaded = false;
    this.list = [];
    this.all = [];
  }
}

/** Built when the section first asks for it (`useStore('accessTokens')`), with the edition's legacy flag. */
const createAccessTokensStore: StoreFactory<AccessTokensStore> = (core) => {
  const store = new AccessTokensStore(core.client, {
    legacy: core.features.legacyTokens,
    userId: () => core.session.user?.id,
    locale: () => core.session.locale,
  });
  // The token page's first render has the first page from the page (else the page's load asks for it).
  const brought = (core.pageData('access-tokens') as { page?: unknown } | null | undefined)?.page;
  if (isTokenPage(brought)) store.seed(brought);
  return store;
};
export default createAccessTokensStore;

/** A page of tokens as the service answers it (what the page brought is checked before the page shows it). */
export function isTokenPage(v: unknown): v is TokenPage {
  if (!isRecord(v)) return false;
  const pages = v.pages;
  return (
    isRecord(pages) &&
    ['current_page', 'page_size', 'total_size'].every((f) => Number.isInteger(pages[f])) &&
    isListOf(
      v.access_tokens,
      (token) =>
        hasStrings(token, ['token_id', 'name', 'description', 'created_at']) &&
        Array.isArray(token.token_scopes) &&
        token.token_scopes.every((s: unknown) => typeof s === 'string') &&
        isStringOrNull(token.expires_at) &&
        isStringOrNull(token.last_used_at) &&
        (token.last_use === null || isLastUse(token.last_use)) &&
        typeof token.expired === 'boolean' &&
        token.token === undefined,
    )
  );
}
