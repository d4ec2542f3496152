import { createContext, use, useContext, type ReactNode } from 'react';
import type { PageBootstrap } from '../../../schemas/page-config';
import { edition, type EditionManifest, type Locale } from '../edition';
import type { RequestClient } from '../request';
import type { Tracker } from '../tracking';
import { SessionStore } from './SessionStore';

/**
 * Every section store by name. Empty here: each plugin adds its stores in its `index.ts` with
 * `declare module '../../src/core/stores/root' { interface StoreMap { accessTokens: AccessTokensStore } }`
 * (an `import type`), so `useStore('accessTokens')` is typed without the core importing any plugin.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface StoreMap {}

/** The name of a section store. */
export type StoreName = keyof StoreMap;

/** The core services a section store is built from. */
export interface StoreCore {
  /** Signed-in user, installed apps, access flags and locale. */
  session: SessionStore;
  /** The request client the stores call through. */
  client: RequestClient;
  /** Usage tracking: `tracker.capture(action, page, params)`. */
  tracker: Tracker;
  /** This bundle's edition feature flags (tests swap them without rebuilding the edition). */
  features: EditionManifest['features'];
  /**
   * What the service put in the page for a plugin's first render (`bootstrap.plugins[id]`, see the server's
   * `ServerPlugin.pageData`), unchecked: the plugin's store factory checks the shape and seeds its store with it.
   */
  pageData(pluginId: string): unknown;
}

/** A store module's default export: builds the store from the core services. */
export type StoreFactory<S> = (core: StoreCore) => S;

/** Loads a store module on demand, so its code lands in the section's chunk: `() => import('./store')`. */
export type StoreLoader<S> = () => Promise<{ default: StoreFactory<S> }>;

/** A plugin's stores, by name, as lazy loaders. */
export type PluginStores = { [K in StoreName]?: StoreLoader<StoreMap[K]> };

/** The one store tree: core services, and the section stores created on first use. */
export interface RootStore extends StoreCore {
  /** The named store, loaded and built on first ask; the same promise every time, so `use()` can wait on it. */
  store<K extends StoreName>(name: K): Promise<StoreMap[K]>;
}

/** Optional parts of the root store, for tests. */
export interface RootStoreOptions {
  /** Ready-made stores that win over the plugins' loaders. */
  stores?: Partial<StoreMap>;
  /** Feature flags instead of the edition's. */
  features?: EditionManifest['features'];
  /** The session state the service put in the page, so the first render needs no call. */
  bootstrap?: PageBootstrap;
}

/** A promise React's `use()` reads at once, without suspending, when it is already settled. */
type Tracked<T> = Promise<T> & { status?: 'pending' | 'fulfilled' | 'rejected'; value?: T; reason?: unknown };

function settled<T>(value: T): Tracked<T> {
  return Object.assign(Promise.resolve(value), { status: 'fulfilled' as const, value });
}

/**
 * Builds the root store: the session at once, each section store only when a page first asks for it. A store name
 * without a loader is a programming error (its plugin is not in this edition, or it forgot to declare it).
 */
export function createRootStore(
  loaders: PluginStores,
  client: RequestClient,
  locale: Locale,
  track: (session: SessionStore) => Tracker,
  options: RootStoreOptions = {},
): RootStore {
  const session = new SessionStore(client, locale, options.bootstrap);
  const cache = new Map<StoreName, Tracked<unknown>>();
  for (const [name, store] of Object.entries(options.stores ?? {}))
    cache.set(name as StoreName, settled(store as unknown));
  const root: RootStore = {
    session,
    client,
    tracker: track(session),
    features: options.features ?? edition.features,
    pageData: (pluginId) => options.bootstrap?.plugins?.[pluginId],
    store<K extends StoreName>(name: K): Promise<StoreMap[K]> {
      let pending = cache.get(name) as Tracked<StoreMap[K]> | undefined;
      if (!pending) {
        const load = loaders[name] as StoreLoader<StoreMap[K]> | undefined;
        const created: Tracked<StoreMap[K]> = load
          ? load().then((m) => m.default(root))
          : Promise.reject(new Error(`no plugin of this edition declares the store "${String(name)}"`));
        created.then(
          (value) => Object.assign(created, { status: 'fulfilled', value }),
          (reason: unknown) => {
            Object.assign(created, { status: 'rejected', reason });
            // A failed chunk load (e.g. offline) may be retried by the next render.
            cache.delete(name);
          },
        );
        pending = created;
        cache.set(name, created);
      }
      return pending;
    },
  };
  return root;
}

const StoresContext = createContext<RootStore | null>(null);

/** Makes the root store reachable with `useStores()` and `useStore(name)` below it. */
export function StoresProvider({ value, children }: { value: RootStore; children: ReactNode }) {
  return <StoresContext.Provider value={value}>{children}</StoresContext.Provider>;
}

/** The root store: session, client, tracker. Section stores come from `useStore(name)`. */
export function useStores(): RootStore {
  const stores = useContext(StoresContext);
  if (!stores) throw new Error('useStores() needs a StoresProvider above it');
  return stores;
}

/** A section store by name; suspends (pages sit under Suspense) until its module has loaded the first time. */
export function useStore<K extends StoreName>(name: K): StoreMap[K] {
  // Always through `use()`: a render that suspended must call it again when retried. A settled promise carries
  // its value (`status`/`value`, as React marks thenables), so later renders get the store without suspending.
  return use(useStores().store(name));
}
