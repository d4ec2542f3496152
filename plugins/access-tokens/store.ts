import { makeAutoObservable, runInAction } from 'mobx';
import type { RequestClient, RequestError } from '../../src/core/request';
import { accessTokensApi, type AccessToken, type TokenFormValues, type TokenScope } from './api';

/** Local-storage key of the remembered page size. */
export const PAGE_SIZE_KEY = 'access-tokens.pageSize';
/** Page size before the person picks one. */
export const DEFAULT_PAGE_SIZE = 20;
/** Page sizes the list offers. */
export const PAGE_SIZE_OPTIONS = [10, 20, 50, 100];

/** Outcome of a create/edit/delete: the page shows the matching catalogue message (plus the server's reason). */
export type MutationResult = { ok: true } | { ok: false; reason?: string };

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

function failure(error: RequestError): MutationResult {
  // A 4xx carries the service's reason in the reader's language; 5xx and network failures only get the catalogue message.
  const data = (error.data ?? {}) as { message?: unknown };
  return {
    ok: false,
    reason: error.status >= 400 && error.status < 500 && typeof data.message === 'string' ? data.message : undefined,
  };
}

/** State and actions of the personal-access-token section. */
export class AccessTokensStore {
  /** A list call is in flight. */
  loading = false;
  /** The first list call has settled; until then neither list nor empty state shows. */
  loaded = false;
  /** The current page of tokens (empty after a failed load). */
  list: AccessToken[] = [];
  /** Pagination: current page, total count, page size (remembered in local storage). */
  page = { current: 1, total: 0, pageSize: readPageSize() };
  /** Whether expired tokens are listed (default true). */
  includeExpired = true;
  /** The value of the token just created, shown once until copied or the screen is left. */
  visibleToken: string | null = null;
  /** The scope catalogue, loaded on demand when a drawer opens. */
  scopes: TokenScope[] = [];
  /** A scope call is in flight. */
  scopesLoading = false;
  /** The last scope call failed (the drawer offers a retry). */
  scopesFailed = false;
  /** A create, edit or delete is in flight. */
  saving = false;
  /** Legacy ("v1") screen: every token is fetched at once and paged here, through the legacy calls. */
  readonly legacy: boolean;
  private all: AccessToken[] = [];
  private api: ReturnType<typeof accessTokensApi>;
  private userId: () => string | undefined;
  private locale: () => string | undefined;
  private scopesLocale: string | undefined;

  constructor(
    client: RequestClient,
    options: { legacy?: boolean; userId?: () => string | undefined; locale?: () => string | undefined } = {},
  ) {
    this.api = accessTokensApi(client);
    this.legacy = !!options.legacy;
    this.userId = options.userId ?? (() => undefined);
    this.locale = options.locale ?? (() => undefined);
    makeAutoObservable<AccessTokensStore, 'api' | 'userId' | 'all' | 'locale' | 'scopesLocale'>(this, {
      api: false,
      userId: false,
      all: false,
      locale: false,
      scopesLocale: false,
    });
  }

  /** Loads the current page; on failure the list stays empty and loading stops. */
  async load(): Promise<void> {
    this.loading = true;
    if (this.legacy) return this.loadLegacy();
    const { current, pageSize } = this.page;
    const [error, result] = await this.api.search(this.includeExpired, current, pageSize);
    runInAction(() => {
      this.loading = false;
      this.loaded = true;
      this.list = error ? [] : result.access_tokens;
      this.page.total = error ? 0 : result.pages.total_size;
      // Deleting the last token of the last page: step back to a page that has tokens.
      if (!error && !this.list.length && this.page.current > 1 && this.page.total > 0) {
        this.page.current = Math.ceil(this.page.total / this.page.pageSize);
        void this.load();
      }
    });
  }

  private async loadLegacy(): Promise<void> {
    const userId = this.userId();
    const [error, result] = userId
      ? await this.api.legacyList(userId)
      : ([new Error('no user') as RequestError, undefined] as const);
    runInAction(() => {
      this.all = error ? [] : result.access_tokens;
      if (!error && result.token_scopes?.length) {
        this.scopes = result.token_scopes;
        this.scopesLocale = this.locale();
      }
      this.loading = false;
      this.loaded = true;
      this.applyLegacyPage();
    });
    // The legacy call may fail or carry no catalogue: fetch the scopes on their own then.
    if (error || !result.token_scopes?.length) await this.loadScopes();
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
  async create(values: TokenFormValues): Promise<MutationResult> {
    this.saving = true;
    const [error, token] = this.legacy ? await this.api.legacyCreate(values) : await this.api.create(values);
    runInAction(() => {
      this.saving = false;
      if (!error) {
        this.visibleToken = token.token ?? null;
        this.page.current = 1;
      }
    });
    if (error) return failure(error);
    await this.load();
    return { ok: true };
  }

  /** Edits a token (the service refuses expired ones). */
  async update(id: string, values: TokenFormValues): Promise<MutationResult> {
    this.saving = true;
    const [error] = this.legacy ? await this.api.legacyUpdate(id, values) : await this.api.update(id, values);
    runInAction(() => {
      this.saving = false;
    });
    if (error) return failure(error);
    await this.load();
    return { ok: true };
  }

  /** Deletes a token after the person confirmed. */
  async remove(id: string): Promise<MutationResult> {
    this.saving = true;
    const [error] = this.legacy ? await this.api.legacyRemove(id) : await this.api.remove(id);
    runInAction(() => {
      this.saving = false;
    });
    if (error) return failure(error);
    await this.load();
    return { ok: true };
  }

  /** The value was copied: it is not shown again. */
  tokenCopied(): void {
    this.visibleToken = null;
  }

  /** Leaving the screen forgets the one-time value and the page position. */
  reset(): void {
    this.visibleToken = null;
    this.page.current = 1;
    this.loaded = false;
    this.list = [];
    this.all = [];
  }
}
