import { act, cleanup, render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { describe, expect, it } from 'vitest';
import { createRequestClient, RequestError, type RequestResult } from '../request';
import { createTracker } from '../tracking';
import { failureOf, failureText } from './failure';
import { annotate, ResourceStore, SectionStore } from './resource';
import { createRootStore, StoresProvider, useStore, type PluginStores, type RootStore, type StoreMap } from './root';

const error = (status: number, data?: unknown) =>
  new RequestError({ status, message: 'x', url: '/x', method: 'POST', data, code: (data as { code?: string })?.code });

describe('failureOf', () => {
  const codes = { KeyDuplicate: 'keys.error.duplicate' };

  it('shows nothing more for a response >= 500 the slice does not explain: the central notice has shown it', () => {
    expect(failureOf(error(500, { code: 'SystemError', message: 'boom' }), codes, 'keys.failed')).toBeUndefined();
    expect(failureOf(error(502, { code: 'MailFailed', message: 'mail' }), codes, 'keys.failed')).toBeUndefined();
  });

  it('adds the slice message for a response >= 500 whose code the slice explains', () => {
    expect(failureOf(error(502, { code: 'KeyDuplicate', message: 'dup' }), codes, 'keys.failed')).toEqual({
      id: 'keys.error.duplicate',
    });
  });

  it("maps a known code to the slice's message id, another 4xx to the service's localised text", () => {
    expect(failureOf(error(409, { code: 'KeyDuplicate', message: 'dup' }), codes, 'keys.failed')).toEqual({
      id: 'keys.error.duplicate',
    });
    expect(failureOf(error(400, { code: 'Other', message: 'Explained.' }), codes, 'keys.failed')).toEqual({
      text: 'Explained.',
    });
    expect(failureOf(error(400, { code: 'constructor' }), codes, 'keys.failed')).toEqual({ id: 'keys.failed' });
  });

  it('falls back to the given id without a response or message, or when the page keeps its own text', () => {
    expect(failureOf(error(0), codes, 'keys.failed')).toEqual({ id: 'keys.failed' });
    expect(failureOf(error(-2), codes, 'keys.failed')).toEqual({ id: 'keys.failed' });
    expect(failureOf(error(403, {}), codes, 'keys.failed')).toEqual({ id: 'keys.failed' });
    expect(failureOf(error(403, { code: 'X', message: 'no' }), codes, 'keys.failed', { serviceText: false })).toEqual({
      id: 'keys.failed',
    });
  });

  it('turns a failure into text in the page language', () => {
    const t = (id: string) => `<${id}>`;
    expect(failureText({ id: 'a.b' }, t)).toBe('<a.b>');
    expect(failureText({ text: 'as is' }, t)).toBe('as is');
  });
});

/** A resource store of this test: `next` is what the following fetch answers. */
class Things extends ResourceStore<string[]> {
  next: Promise<RequestResult<string[]>> = Promise.resolve([null, []]);
  constructor() {
    super({ empty: [], loading: true });
    annotate<Things>(this, { action: ['save'] });
  }
  protected fetch() {
    return this.next;
  }
  save(call: Promise<RequestResult<string>>) {
    return this.saveWith(call, {
      failure: (e) => failureOf(e, {}, 'things.failed'),
      apply: (item) => (this.data = [...this.data, item]),
    });
  }
}

/** A store that keeps what it knew when a load fails. */
class Kept extends Things {
  protected override clear(): void {}
}

/** A store with no single resource: the flags and the save helper only. */
class Flags extends SectionStore {
  send(call: Promise<RequestResult<string>>) {
    return this.saveWith(call, { busy: () => {} });
  }
}

describe('ResourceStore', () => {
  it('ends loading on success and on failure; data is empty before the first load and after a failure', async () => {
    const store = new Things();
    expect(store).toMatchObject({ loading: true, loaded: false, failed: false, data: [] });
    store.next = Promise.resolve([null, ['a']]);
    await store.load();
    expect(store).toMatchObject({ loading: false, loaded: true, failed: false, data: ['a'] });
    store.next = Promise.resolve([error(500), undefined]);
    const pending = store.load();
    expect(store.loading).toBe(true);
    await pending;
    expect(store).toMatchObject({ loading: false, loaded: true, failed: true, data: [] });
  });

  it('lets a store keep what it knew when a load fails', async () => {
    const store = new Kept();
    store.next = Promise.resolve([null, ['known']]);
    await store.load();
    store.next = Promise.resolve([error(0), undefined]);
    await store.load();
    expect(store).toMatchObject({ failed: true, data: ['known'] });
  });

  it('ends saving on success and on failure, and says what to show', async () => {
    const store = new Things();
    store.next = Promise.resolve([null, ['stale']]);
    await store.load();
    const pending = store.save(Promise.resolve([null, 'b']));
    expect(store.saving).toBe(true);
    expect(await pending).toEqual({ ok: true });
    expect(store.data).toEqual(['stale', 'b']);
    expect(await store.save(Promise.resolve([error(0), undefined]))).toEqual({
      ok: false,
      failure: { id: 'things.failed' },
    });
    expect(store.saving).toBe(false);
    expect(store.data).toEqual(['stale', 'b']);
  });

  it('a store without a resource starts idle, and a store-specific busy flag leaves `saving` alone', async () => {
    const store = new Flags();
    expect(store).toMatchObject({ loading: false, loaded: false, failed: false, saving: false });
    const pending = store.send(Promise.resolve([null, 'x']));
    expect(store.saving).toBe(false);
    expect(await pending).toEqual({ ok: true });
  });
});

declare module './root' {
  interface StoreMap {
    /** A store of this test only. */
    testThings: Things;
  }
}

function rootWith(loaders: PluginStores, preset?: Partial<StoreMap>) {
  const client = createRequestClient({ fetch: (() => Promise.reject(new Error('offline'))) as typeof fetch });
  return createRootStore(loaders, client, 'en_US', () => createTracker({ send: async () => true }), {
    stores: preset,
  });
}

describe('root store', () => {
  it('builds a section store on first ask only, once per root, from its lazy module', async () => {
    let loads = 0;
    const root = rootWith({
      testThings: async () => {
        loads++;
        return { default: (core) => Object.assign(new Things(), { data: [core.session.locale] }) };
      },
    });
    expect(loads).toBe(0);
    const first = root.store('testThings');
    expect(root.store('testThings')).toBe(first);
    expect((await first).data).toEqual(['en_US']);
    expect(loads).toBe(1);
    expect(await rootWith({ testThings: async () => ({ default: () => new Things() }) }).store('testThings')).not.toBe(
      await first,
    );
  });

  it('refuses a store no plugin declares, and retries a module that failed to load', async () => {
    await expect(rootWith({}).store('testThings')).rejects.toThrow(/testThings/);
    let fail = true;
    const root = rootWith({
      testThings: async () => {
        if (fail) throw new Error('chunk failed');
        return { default: () => new Things() };
      },
    });
    await expect(root.store('testThings')).rejects.toThrow('chunk failed');
    fail = false;
    await expect(root.store('testThings')).resolves.toBeInstanceOf(Things);
  });

  it('useStore suspends until the module is loaded, then renders with it; ready-made stores do not suspend', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => (release = r));
    const root = rootWith({
      testThings: async () => {
        await gate;
        return { default: () => Object.assign(new Things(), { data: ['loaded'] }) };
      },
    });
    function Page() {
      return <p>{useStore('testThings').data.join()}</p>;
    }
    const ui = (r: RootStore) => (
      <StoresProvider value={r}>
        <Suspense fallback={<i>waiting</i>}>
          <Page />
        </Suspense>
      </StoresProvider>
    );
    await act(async () => void render(ui(root)));
    expect(screen.getByText('waiting')).toBeTruthy();
    await act(async () => release());
    expect(await screen.findByText('loaded')).toBeTruthy();
    cleanup();

    const preset = Object.assign(new Things(), { data: ['given'] });
    render(ui(rootWith({}, { testThings: preset })));
    expect(screen.getByText('given')).toBeTruthy();
  });
});
