import { runInAction } from 'mobx';
import type { RequestClient, RequestError, RequestResult } from '../../src/core/request';
import { failureOf, type ActionResult, type Failure } from '../../src/core/stores/failure';
import { annotate, SectionStore } from '../../src/core/stores/resource';
import type { StoreCore, StoreFactory } from '../../src/core/stores/root';
import { inboxApi, type InboxApi } from './api';
import type { InboxChanged, InboxCounts, InboxMessage, InboxPage } from './contract';
import { INBOX_APPS, INBOX_BATCH_MAX, INBOX_PAGE_SIZE_DEFAULT, type InboxApp, type InboxTab } from './limits';
import { hasStrings, isListOf, isPageOf, isRecord, isStringOrNull } from '../../src/core/shape';

/** Service error codes the page explains in its own catalogue (the UI language may differ from the service's). */
export const INBOX_ERROR_MESSAGES: Readonly<Record<string, string>> = {
  InboxMessageNotFound: 'notifications.error.notFound',
  InboxMessageUnreadSensitive: 'notifications.error.unreadSensitive',
};

/** What the page shows when an action fails with nothing more specific to say. */
export const INBOX_FALLBACKS = {
  read: 'notifications.result.readFailed',
  remove: 'notifications.result.deleteFailed',
  loadMore: 'notifications.result.loadMoreFailed',
} as const;

const failure = (fallbackId: string) => (error: RequestError) =>
  failureOf(error, INBOX_ERROR_MESSAGES, fallbackId, { serviceText: false });

/** Counts of nothing: before the first answer and when none could be read. */
export const NO_COUNTS: InboxCounts = { unread: 0, total: 0, apps: [] };

/** The bell refreshes its count at most this often by itself (besides focus, navigation and the page's changes). */
export const COUNTS_POLL_MS = 60_000;

/**
 * After a call that wrote account events (a new message, most likely), the counts are asked for once, this long
 * after the first call of a burst: a burst of writes (a batch, a form that saves twice) costs one count call.
 */
export const COUNTS_SETTLE_MS = 250;

/** Returning to the tab (focus, visibility; both come at once) asks at most this often after the last answer asked. */
export const COUNTS_RETURN_MIN_MS = 5_000;

/** Outcome of a change that may touch several messages: how many it changed, and how many it kept. */
export type InboxChangeResult = { ok: true; changed: InboxChanged } | { ok: false; failure?: Failure };

/**
 * Unread and total counts, shared by the bell and the page (one instance per root store): the page's changes
 * refresh it, and the bell shows it at once. A failed refresh keeps what it knew, so the bell does not flicker to 0.
 */
export class InboxCountsStore extends SectionStore {
  /** The last counts the service answered; `NO_COUNTS` until then. */
  counts: InboxCounts = NO_COUNTS;
  private readonly api: InboxApi;
  private sequence = 0;
  private watchers = 0;
  private stopWatching: (() => void) | null = null;
  /** When the counts were last asked for (`Date.now()`), so a return to the tab right after asks nothing. */
  private askedAt = Number.NEGATIVE_INFINITY;
  /** The pending refresh after account events, while a burst lasts. */
  private settling: ReturnType<typeof setTimeout> | null = null;

  constructor(api: InboxApi) {
    super();
    this.api = api;
    annotate<InboxCountsStore>(this, { observable: ['counts'], action: ['refresh'] });
  }

  /**
   * Takes the counts the page brought (`StoreCore.pageData`): as fresh as the page, so the next `refresh()` (the
   * bell's on arrival, or the message center's with its first list) makes no call; later ones ask.
   */
  seed(counts: InboxCounts): void {
    this.seedWith(() => (this.counts = counts));
  }

  /** Unread messages, of one application or of all. */
  unreadOf(app: InboxApp | null = null): number {
    return app ? (this.counts.apps.find((a) => a.app === app)?.unread ?? 0) : this.counts.unread;
  }

  /** All messages, of one application or of all. */
  totalOf(app: InboxApp | null = null): number {
    return app ? (this.counts.apps.find((a) => a.app === app)?.total ?? 0) : this.counts.total;
  }

  /**
   * A page's arrival: asks the service, unless the page brought the counts (`seed`) and nothing asked since. Only
   * an arrival may be answered by the seed: a change made on a freshly loaded page must still be counted.
   */
  async arrive(): Promise<void> {
    if (this.takeSeed()) return;
    await this.ask();
  }

  /**
   * Asks the service again (after a change, on focus, on the timer); when answers cross, the latest request wins.
   * The seed is spent: a later arrival asks too.
   */
  async refresh(): Promise<void> {
    this.takeSeed();
    await this.ask();
  }

  private async ask(): Promise<void> {
    this.askedAt = Date.now();
    const sequence = ++this.sequence;
    const [error, counts] = await this.loadWith(
      this.api.counts(),
      () => {},
      () => {},
    );
    if (!error && sequence === this.sequence) runInAction(() => (this.counts = counts));
  }

  /**
   * Keeps the counts fresh while a bell shows them: after any call that wrote account events (one refresh per burst,
   * `COUNTS_SETTLE_MS`), on returning to the tab (focus or visible, at most once per `COUNTS_RETURN_MIN_MS`), and every
   * `COUNTS_POLL_MS` while it is visible. Returns the stop function (the last watcher to stop ends it all).
   */
  watch(): () => void {
    if (this.watchers++ === 0) this.stopWatching = this.startWatching();
    let stopped = false;
    return () => {
      if (stopped) return;
      stopped = true;
      if (--this.watchers === 0) {
        this.stopWatching?.();
        this.stopWatching = null;
      }
    };
  }

  private startWatching(): () => void {
    const visible = () => typeof document === 'undefined' || document.visibilityState !== 'hidden';
    const onReturn = () => {
      if (visible() && Date.now() - this.askedAt >= COUNTS_RETURN_MIN_MS) void this.refresh();
    };
    window.addEventListener('focus', onReturn);
    document.addEventListener('visibilitychange', onReturn);
    const timer = setInterval(() => visible() && void this.refresh(), COUNTS_POLL_MS);
    const stopHearing = this.api.accountEvents(() => this.settle());
    return () => {
      window.removeEventListener('focus', onReturn);
      document.removeEventListener('visibilitychange', onReturn);
      clearInterval(timer);
      stopHearing();
      if (this.settling !== null) clearTimeout(this.settling);
      this.settling = null;
    };
  }

  /** A call wrote account events: one refresh shortly, whatever else the burst writes meanwhile. */
  private settle(): void {
    if (this.settling !== null) return;
    this.settling = setTimeout(() => {
      this.settling = null;
      void this.refresh();
    }, COUNTS_SETTLE_MS);
  }
}

/**
 * The message center's list: a tab and an application filter, the pages loaded so far (first page replaces,
 * "load more" appends), a selection, and the actions; every change refreshes the shared counts.
 */
export class InboxStore extends SectionStore {
  /** The tab shown: every message or only the unread ones. */
  tab: InboxTab = 'all';
  /** The application filter; null shows every application. */
  app: InboxApp | null = null;
  /** The messages loaded so far, newest first (empty after a failed load). */
  messages: InboxMessage[] = [];
  /** Token of the next page; null when the last page is loaded. */
  nextToken: string | null = null;
  /** "Load more" is in flight (the list stays as it is meanwhile). */
  loadingMore = false;
  /** Ids of the selected messages (only loaded ones). */
  selected = new Set<string>();
  /** Unread and total counts, shared with the bell. */
  readonly counts: InboxCountsStore;
  private readonly api: InboxApi;
  private readonly pageSize: number;
  private generation = 0;

  constructor(api: InboxApi, counts: InboxCountsStore, options: { pageSize?: number } = {}) {
    // The page shows a skeleton until the first page has settled.
    super({ loading: true });
    this.api = api;
    this.counts = counts;
    this.pageSize = options.pageSize ?? INBOX_PAGE_SIZE_DEFAULT;
    annotate<InboxStore, 'markReadLocally' | 'dropLocally'>(this, {
      observable: ['tab', 'app', 'messages', 'nextToken', 'loadingMore', 'selected'],
      action: [
        'seed',
        'load',
        'loadMore',
        'setTab',
        'setApp',
        'toggle',
        'selectAll',
        'clearSelection',
        'markRead',
        'markSelectedRead',
        'markAllRead',
        'remove',
        'removeSelected',
        'removeRead',
        'markReadLocally',
        'dropLocally',
      ],
      computed: ['selectedMessages', 'allSelected'],
    });
  }

  /** The selected messages, in list order. */
  get selectedMessages(): InboxMessage[] {
    return this.messages.filter((m) => this.selected.has(m.id));
  }

  /** Every loaded message is selected (and there is at least one). */
  get allSelected(): boolean {
    return this.messages.length > 0 && this.messages.every((m) => this.selected.has(m.id));
  }

  /**
   * Takes the first page as the page brought it (`StoreCore.pageData`, for the tab and filter a new list starts with):
   * loaded at once, and the message center's own first `load()` makes no call; later loads ask as usual.
   */
  seed(page: InboxPage): void {
    this.seedWith(() => {
      this.messages = page.messages;
      this.nextToken = page.pages.next_token;
    });
  }

  /**
   * Loads the first page of the tab and filter, replacing the list and the selection, and the counts with it; the
   * page's first load takes what the page brought for both instead (`seed`).
   */
  async load(): Promise<void> {
    const seeded = this.takeSeed();
    // The page's first load is its arrival, which the counts the page brought answer; later loads ask again.
    void this.counts.arrive();
    if (seeded) return;
    const generation = ++this.generation;
    await this.loadWith(
      this.api.list(this.query()),
      (page) => {
        if (generation !== this.generation) return;
        this.messages = page.messages;
        this.nextToken = page.pages.next_token;
        this.selected = new Set();
      },
      () => {
        if (generation !== this.generation) return;
        this.messages = [];
        this.nextToken = null;
        this.selected = new Set();
      },
    );
  }

  /** Appends the next page; a failure keeps the list and says so. */
  async loadMore(): Promise<ActionResult> {
    const token = this.nextToken;
    if (!token || this.loadingMore || this.loading) return { ok: true };
    const generation = this.generation;
    return this.saveWith(this.api.list({ ...this.query(), next_token: token }), {
      busy: (on) => (this.loadingMore = on),
      failure: failure(INBOX_FALLBACKS.loadMore),
      apply: (page) => {
        // A reload started meanwhile owns the list now.
        if (generation !== this.generation) return;
        const known = new Set(this.messages.map((m) => m.id));
        this.messages = [...this.messages, ...page.messages.filter((m) => !known.has(m.id))];
        this.nextToken = page.pages.next_token;
      },
    });
  }

  /** Shows another tab, from its first page. */
  setTab(tab: InboxTab): Promise<void> {
    this.tab = tab;
    return this.load();
  }

  /** Filters by one application (null: all), from the first page. */
  setApp(app: InboxApp | null): Promise<void> {
    this.app = app;
    return this.load();
  }

  /** Selects or unselects one message. */
  toggle(id: string, on = !this.selected.has(id)): void {
    const next = new Set(this.selected);
    if (on) next.add(id);
    else next.delete(id);
    this.selected = next;
  }

  /** Selects every loaded message, or none. */
  selectAll(on: boolean): void {
    this.selected = new Set(on ? this.messages.map((m) => m.id) : []);
  }

  /** Forgets the selection. */
  clearSelection(): void {
    this.selected = new Set();
  }

  /** Marks one message read (opening it, following its link); one already read needs no call. */
  async markRead(id: string): Promise<ActionResult> {
    const m = this.messages.find((x) => x.id === id);
    if (m?.read) return { ok: true };
    const r = await this.saveWith(this.api.read(id), {
      failure: failure(INBOX_FALLBACKS.read),
      apply: () => this.markReadLocally([id]),
    });
    if (!r.ok && r.failure && 'id' in r.failure && r.failure.id === INBOX_ERROR_MESSAGES.InboxMessageNotFound)
      this.dropLocally([id]);
    void this.counts.refresh();
    return r;
  }

  /** Marks the selected messages read (at most `INBOX_BATCH_MAX` per call), keeping the selection. */
  async markSelectedRead(): Promise<InboxChangeResult> {
    const ids = this.selectedMessages.filter((m) => !m.read).map((m) => m.id);
    if (!ids.length) return { ok: true, changed: { count: 0, kept: 0 } };
    return this.inBatches(
      ids,
      (batch) => this.api.readMany({ ids: batch }),
      INBOX_FALLBACKS.read,
      (batch) => this.markReadLocally(batch),
    );
  }

  /** Marks every unread message read (of the filtered application when one is chosen). */
  async markAllRead(): Promise<InboxChangeResult> {
    const body = this.app ? { app: this.app } : {};
    return this.change(this.api.readMany(body), INBOX_FALLBACKS.read, () =>
      this.markReadLocally(this.messages.map((m) => m.id)),
    );
  }

  /** Deletes one message; an unread security message is refused (the page disables its control anyway). */
  async remove(id: string): Promise<ActionResult> {
    const r = await this.saveWith(this.api.remove(id), {
      failure: failure(INBOX_FALLBACKS.remove),
      apply: () => this.dropLocally([id]),
    });
    if (!r.ok && r.failure && 'id' in r.failure && r.failure.id === INBOX_ERROR_MESSAGES.InboxMessageNotFound)
      this.dropLocally([id]);
    void this.counts.refresh();
    await this.afterRemoval();
    return r;
  }

  /**
   * Deletes the selected messages; the service keeps unread security messages (`kept`), which stay listed and
   * selected so the person sees which ones.
   */
  async removeSelected(): Promise<InboxChangeResult> {
    const chosen = this.selectedMessages;
    if (!chosen.length) return { ok: true, changed: { count: 0, kept: 0 } };
    const keeps = (m: InboxMessage) => m.sensitive && !m.read;
    const r = await this.inBatches(
      chosen.map((m) => m.id),
      (batch) => this.api.removeMany({ ids: batch }),
      INBOX_FALLBACKS.remove,
      (batch) => {
        const ids = new Set(batch);
        this.dropLocally(chosen.filter((m) => ids.has(m.id) && !keeps(m)).map((m) => m.id));
      },
    );
    // What the service kept is not what the page expected (a message was read elsewhere meanwhile): ask again.
    if (r.ok && r.changed.kept !== chosen.filter(keeps).length) await this.load();
    else await this.afterRemoval();
    return r;
  }

  /** Deletes every read message (of the filtered application when one is chosen). */
  async removeRead(): Promise<InboxChangeResult> {
    const body = this.app ? { app: this.app } : {};
    const r = await this.change(this.api.removeRead(body), INBOX_FALLBACKS.remove, () =>
      this.dropLocally(this.messages.filter((m) => m.read).map((m) => m.id)),
    );
    await this.afterRemoval();
    return r;
  }

  /** The list call's body for the tab and filter. */
  private query() {
    return { tab: this.tab, page_size: this.pageSize, ...(this.app ? { app: this.app } : {}) };
  }

  /** Runs one change call: busy flag, failure mapping, `apply` on success; then refreshes the counts. */
  private async change(
    call: Promise<RequestResult<InboxChanged>>,
    fallbackId: string,
    apply: () => void,
  ): Promise<InboxChangeResult> {
    let changed: InboxChanged = { count: 0, kept: 0 };
    const r = await this.saveWith(call, {
      failure: failure(fallbackId),
      apply: (answer) => {
        changed = answer;
        apply();
      },
    });
    void this.counts.refresh();
    return r.ok ? { ok: true, changed } : r;
  }

  /** Runs a change over many ids in batches the service accepts, summing the answers; stops at the first failure. */
  private async inBatches(
    ids: string[],
    call: (batch: string[]) => Promise<RequestResult<InboxChanged>>,
    fallbackId: string,
    apply: (batch: string[]) => void,
  ): Promise<InboxChangeResult> {
    const total: InboxChanged = { count: 0, kept: 0 };
    for (let i = 0; i < ids.length; i += INBOX_BATCH_MAX) {
      const batch = ids.slice(i, i + INBOX_BATCH_MAX);
      const r = await this.change(call(batch), fallbackId, () => apply(batch));
      if (!r.ok) return r;
      total.count += r.changed.count;
      total.kept += r.changed.kept;
    }
    return { ok: true, changed: total };
  }

  /** After a deletion emptied the loaded list while more pages exist, loads the first page again. */
  private async afterRemoval(): Promise<void> {
    if (!this.messages.length && this.nextToken) await this.load();
  }

  private markReadLocally(ids: string[]): void {
    const set = new Set(ids);
    this.messages = this.messages.map((m) => (set.has(m.id) && !m.read ? { ...m, read: true } : m));
  }

  private dropLocally(ids: string[]): void {
    const set = new Set(ids);
    this.messages = this.messages.filter((m) => !set.has(m.id));
    if (ids.some((id) => this.selected.has(id)))
      this.selected = new Set([...this.selected].filter((id) => !set.has(id)));
  }
}

/** One counts store per root store, so the bell and the page share it whichever loads first. */
const countsByCore = new WeakMap<StoreCore, InboxCountsStore>();

function countsOf(core: StoreCore): InboxCountsStore {
  let counts = countsByCore.get(core);
  if (!counts) {
    counts = new InboxCountsStore(inboxApi(core.client));
    const brought = (core.pageData('notifications') as { counts?: unknown } | null | undefined)?.counts;
    if (isInboxCounts(brought)) counts.seed(brought);
    countsByCore.set(core, counts);
  }
  return counts;
}

const isCount = (v: unknown) => Number.isInteger(v) && (v as number) >= 0;

/** Counts as the service answers them (what the page brought is checked before the bell trusts it). */
export function isInboxCounts(v: unknown): v is InboxCounts {
  return (
    isRecord(v) &&
    isCount(v.unread) &&
    isCount(v.total) &&
    isListOf(v.apps, (app) => typeof app.app === 'string' && isCount(app.unread) && isCount(app.total))
  );
}

/** A page of messages as the service answers it (what the page brought is checked before the list shows it). */
export function isInboxPage(v: unknown): v is InboxPage {
  return isPageOf(
    v,
    'messages',
    (m) =>
      hasStrings(m, ['id', 'app', 'type', 'title', 'body', 'created_at']) &&
      (INBOX_APPS as readonly unknown[]).includes(m.app) &&
      isStringOrNull(m.link) &&
      typeof m.read === 'boolean' &&
      typeof m.sensitive === 'boolean',
  );
}

/** Built when the page first asks for it (`useStore('inbox')`). */
const createInboxStore: StoreFactory<InboxStore> = (core) => {
  const store = new InboxStore(inboxApi(core.client), countsOf(core));
  // The message center's first render has the first page from the page (else its load asks for it).
  const brought = (core.pageData('notifications') as { page?: unknown } | null | undefined)?.page;
  if (isInboxPage(brought)) store.seed(brought);
  return store;
};
export default createInboxStore;

/** Built when the bell (or the page) first asks for it (`useStore('inboxCounts')`). */
export const createInboxCountsStore: StoreFactory<InboxCountsStore> = (core) => countsOf(core);

/** Test seam: a counts store and a list store over one client, as the app wires them. */
export function createInboxStores(client: RequestClient, options: { pageSize?: number } = {}) {
  const api = inboxApi(client);
  const counts = new InboxCountsStore(api);
  return { counts, inbox: new InboxStore(api, counts, options) };
}
