import { action, computed, makeObservable, observable, runInAction, type AnnotationsMap } from 'mobx';
import type { RequestResult } from '../request/client';
import type { RequestError } from '../request/errors';
import type { ActionResult, Failure } from './failure';

/** Options of `SectionStore.saveWith`. */
export interface SaveOptions<T> {
  /** Maps a failure to what the page shows (usually `failureOf(error, codes, fallbackId)`); absent: nothing. */
  failure?: (error: RequestError) => Failure | undefined;
  /** Applies a successful answer to the store; runs inside an action. */
  apply?: (data: T) => void;
  /** The flag raised while the call runs, for stores with one flag per action; defaults to `saving`. */
  busy?: (on: boolean) => void;
}

/** A member `annotate` may name: a key of the store, or a private one named in `K` (never guessed from the list). */
type Member<T, K extends PropertyKey> = Exclude<keyof T, 'toString'> | NoInfer<K>;

/** A store's own members by MobX annotation, so a subclass lists names instead of a `{ name: annotation }` map. */
export interface OwnAnnotations<T, K extends PropertyKey = never> {
  /** Fields the pages read. */
  observable?: readonly Member<T, K>[];
  /** Methods that change them. */
  action?: readonly Member<T, K>[];
  /** Getters derived from them, cached while observed. */
  computed?: readonly Member<T, K>[];
}

const ANNOTATIONS = { observable, action, computed } as const;

/**
 * Annotates a class's own members (MobX's `makeAutoObservable` refuses subclasses, so each class names its own after
 * `super()`). Call it as `annotate<ThisClass>(this, …)` so a misspelt name is a type error; `K` names private members,
 * as in `makeObservable<T, K>`.
 */
export function annotate<T extends object, K extends PropertyKey = never>(store: T, own: OwnAnnotations<T, K>): void {
  const map: Record<PropertyKey, (typeof ANNOTATIONS)[keyof typeof ANNOTATIONS]> = {};
  for (const kind of ['observable', 'action', 'computed'] as const) {
    for (const name of own[kind] ?? []) map[name] = ANNOTATIONS[kind];
  }
  makeObservable<T, K>(store, map as AnnotationsMap<T, K>);
}

/**
 * The base of every section store: the flags the pages read, and two helpers that always end them, on success
 * and on failure. Stores around one fetched resource extend `ResourceStore` instead.
 */
export abstract class SectionStore {
  /** A load is in flight (stores whose page shows a skeleton before the first load start true). */
  loading: boolean;
  /** The first load has settled, success or failure; until then neither data nor an empty state shows. */
  loaded = false;
  /** The last load failed; the page says so instead of showing an empty list. */
  failed = false;
  /** A create, edit or delete is in flight, so buttons cannot be pressed twice. */
  saving = false;
  /** Seeded and not loaded since: the next load is the page's first, and has its data already. */
  private seeded = false;

  constructor(options: { loading?: boolean } = {}) {
    this.loading = !!options.loading;
    annotate<SectionStore>(this, { observable: ['loading', 'loaded', 'failed', 'saving'] });
  }

  /**
   * Runs a load: `loading` until it settles; on success `apply(data)`, on failure `clear()` so no stale or partial
   * data shows; `failed` and `loaded` follow. Returns the call's pair for callers that go on.
   */
  protected async loadWith<T>(
    call: Promise<RequestResult<T>>,
    apply: (data: T) => void,
    clear: () => void,
  ): Promise<RequestResult<T>> {
    runInAction(() => {
      this.loading = true;
    });
    const result = await call;
    runInAction(() => {
      const [error, data] = result;
      this.loading = false;
      this.loaded = true;
      this.failed = !!error;
      if (error) clear();
      else apply(data as T);
    });
    return result;
  }

  /**
   * Applies what the page brought (`StoreCore.pageData`) as a settled first load (loaded, not loading, not failed);
   * the store's next load then asks `takeSeed()` and makes no call.
   */
  protected seedWith(apply: () => void): void {
    runInAction(() => {
      apply();
      this.loading = false;
      this.loaded = true;
      this.failed = false;
    });
    this.seeded = true;
  }

  /** True once after `seedWith` (the load that would fetch what the page brought); false otherwise. */
  protected takeSeed(): boolean {
    const seeded = this.seeded;
    this.seeded = false;
    return seeded;
  }

  /** Runs a create/edit/delete: the busy flag until it settles; a failure becomes what the page shows. */
  protected async saveWith<T>(call: Promise<RequestResult<T>>, options: SaveOptions<T> = {}): Promise<ActionResult> {
    const busy = options.busy ?? ((on: boolean) => (this.saving = on));
    runInAction(() => busy(true));
    const [error, data] = await call;
    runInAction(() => {
      busy(false);
      if (!error) options.apply?.(data as T);
    });
    return error ? { ok: false, failure: options.failure?.(error) } : { ok: true };
  }
}

/** Options of a `ResourceStore`. */
export interface ResourceOptions<T> {
  /** What `data` holds before the first load and after a failed one, so no stale or partial data shows. */
  empty: T;
  /** Start as loading, for pages that show a skeleton until the first fetch settles. */
  loading?: boolean;
}

/**
 * A section store around one fetched resource: it owns `data` and `load()`, so a subclass gives only the call
 * (`fetch`), the empty value and its own actions; pages read the resource under its domain name through a getter.
 */
export abstract class ResourceStore<T> extends SectionStore {
  /** The loaded resource; the empty value until the first load succeeds and after a failed one. */
  data: T;
  private readonly empty: T;

  constructor(options: ResourceOptions<T>) {
    super(options);
    this.empty = options.empty;
    this.data = options.empty;
    annotate<ResourceStore<T>>(this, { observable: ['data'], action: ['load'] });
  }

  /** The call that fetches the resource: the one rule of loading a subclass writes. */
  protected abstract fetch(): Promise<RequestResult<T>>;

  /** What a failed load leaves in `data`: the empty value (a store that keeps what it knew overrides this). */
  protected clear(): void {
    this.data = this.empty;
  }

  /**
   * Takes the resource as the page brought it (`StoreCore.pageData`): loaded at once, and the next `load()` makes no
   * call (the page's own first load); later loads fetch as usual.
   */
  seed(data: T): void {
    this.seedWith(() => (this.data = data));
  }

  /** Fetches the resource; loading stops on success and on failure. Right after `seed`, once, it does nothing. */
  async load(): Promise<void> {
    if (this.takeSeed()) return;
    await this.loadWith(
      this.fetch(),
      (data) => (this.data = data),
      () => this.clear(),
    );
  }
}
