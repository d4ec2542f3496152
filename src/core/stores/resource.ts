import { makeObservable, observable, runInAction } from 'mobx';
import type { RequestResult } from '../request/client';
import type { RequestError } from '../request/errors';
import type { ActionResult, Failure } from './failure';

/** Options of `ResourceStore.saveWith`. */
export interface SaveOptions<T> {
  /** Maps a failure to what the page shows (usually `failureOf(error, codes, fallbackId)`); absent: nothing. */
  failure?: (error: RequestError) => Failure | undefined;
  /** Applies a successful answer to the store; runs inside an action. */
  apply?: (data: T) => void;
  /** The flag raised while the call runs, for stores with one flag per action; defaults to `saving`. */
  busy?: (on: boolean) => void;
}

/**
 * The base of every section store: the flags the pages read, and two helpers that always end them, on success
 * and on failure. Subclasses annotate their own fields with `makeObservable(this, {...})` after `super()`
 * (MobX's `makeAutoObservable` refuses subclasses).
 */
export abstract class ResourceStore {
  /** A load is in flight (stores whose page shows a skeleton before the first load start true). */
  loading: boolean;
  /** The first load has settled, success or failure; until then neither data nor an empty state shows. */
  loaded = false;
  /** The last load failed; the page says so instead of showing an empty list. */
  failed = false;
  /** A create, edit or delete is in flight, so buttons cannot be pressed twice. */
  saving = false;

  constructor(options: { loading?: boolean } = {}) {
    this.loading = !!options.loading;
    makeObservable(this, { loading: observable, loaded: observable, failed: observable, saving: observable });
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
