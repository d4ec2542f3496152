import { createContext, useContext, type ReactNode } from 'react';
import type { Locale } from '../edition';
import type { Registry } from '../plugin';
import type { RequestClient } from '../request';
import type { Tracker } from '../tracking';
import { SessionStore } from './SessionStore';

/** The one store tree: core stores plus whatever each plugin's `createStores` adds. */
export interface RootStore {
  /** Signed-in user, installed apps, access flags and locale. */
  session: SessionStore;
  /** The request client the stores call through. */
  client: RequestClient;
  /** Usage tracking: `tracker.capture(action, page, params)`. */
  tracker: Tracker;
  [pluginStore: string]: unknown;
}

/** Builds the root store, then lets every plugin add its stores; a key clash is a programming error. */
export function createRootStore(
  registry: Registry,
  client: RequestClient,
  locale: Locale,
  track: (session: SessionStore) => Tracker,
): RootStore {
  const session = new SessionStore(client, locale);
  const root: RootStore = { session, client, tracker: track(session) };
  for (const plugin of registry.plugins) {
    const added = plugin.createStores?.(root) ?? {};
    for (const [key, store] of Object.entries(added)) {
      if (key in root) throw new Error(`plugin "${plugin.id}" adds store "${key}" which already exists`);
      root[key] = store;
    }
  }
  return root;
}

const StoresContext = createContext<RootStore | null>(null);

/** Makes the root store reachable with `useStores()` below it. */
export function StoresProvider({ value, children }: { value: RootStore; children: ReactNode }) {
  return <StoresContext.Provider value={value}>{children}</StoresContext.Provider>;
}

/** The root store; plugins narrow it to their own stores with a type parameter. */
export function useStores<T extends object = RootStore>(): RootStore & T {
  const stores = useContext(StoresContext);
  if (!stores) throw new Error('useStores() needs a StoresProvider above it');
  return stores as RootStore & T;
}
