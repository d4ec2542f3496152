import type { MessageFormatElement } from 'react-intl';
import { createContext, type ComponentType } from 'react';
import type { Permission } from './access/access';
import type { Locale } from './edition';
import type { PluginStores, StoreLoader, StoreName } from './stores/root';

export type { Permission } from './access/access';

/** A lazily loaded page module, so each plugin's screens land in their own named chunk. */
export type PageLoader = () => Promise<{ default: ComponentType }>;

/**
 * What the service and the build need to know of a page, declared beside its loader: the named chunks its first
 * render needs (its loader's `webpackChunkName` and its stores'), which the service names in the page so the browser
 * fetches them with the document. The build checks that each name is a chunk it made.
 */
export interface PageDeclaration {
  chunks?: string[];
  /**
   * The service renders this page's first screen (React on the service, hydrated in the browser; a settings section
   * only for a signed-in visitor), so it paints with the document instead of after the scripts. Its render must need
   * only the page configuration (its bootstrap and page data) and render the same in the browser's hydrating render:
   * what only the browser knows (its zone and clock, the window's width) waits for hydration through a server snapshot
   * (`LocalTime`, `RelativeTime`, `useMediaQuery`); tests/kit/hydration.tsx checks a section so.
   */
  firstScreen?: boolean;
}

/** An entry of the settings sidebar, shown under `/users/settings/:key`. */
export interface SettingsSection extends PageDeclaration {
  /** The sidebar key, also the URL segment. */
  key: string;
  /** Message id of the sidebar title. */
  messageId: string;
  /** Extra condition on top of the edition's menu rule; absent means open. */
  permission?: Permission;
  load: PageLoader;
  /**
   * Sub-paths under the section that its page handles itself (e.g. `create` for
   * `/users/settings/personalAccessToken/create`); the shell sends any other sub-path back to the section.
   */
  subPaths?: string[];
}

/** A top-level page of the app (login, switch, notifications…). */
export interface PluginRoute extends PageDeclaration {
  path: string;
  load: PageLoader;
  /** Permission flags of which at least one must be granted (`session.access`); empty or absent means open. */
  auth?: string[];
  /** `app` (default) wraps the page in the product frame; `bare` shows it alone (sign-in, landing pages). */
  frame?: 'app' | 'bare';
}

/**
 * A control a plugin adds to the top bar of a signed-in user (before help and language), e.g. the message bell. It
 * loads lazily in its own chunk, so the shell never imports the plugin and an edition without it shows nothing.
 */
export interface HeaderItem extends PageDeclaration {
  /** Unique across plugins (the registry refuses a second one); also the React key. */
  key: string;
  /**
   * The control's module, `() => import('./components/Item')`, in a chunk of its own (`plugin-<id>-<item>`).
   */
  load: PageLoader;
}

/**
 * One locale's messages, keyed `<pluginId>.<area>.<element>`. The sources are ICU strings; the build compiles them
 * to formatjs syntax trees (scripts/lib/compile-messages.ts), which is what the bundle and the page carry.
 */
export type MessageCatalogue = Record<string, string | MessageFormatElement[]>;

/**
 * A catalogue, or a loader of it. Loaders keep catalogues out of the initial bundle: name their chunk
 * `messages-<locale>` so every plugin's catalogue of one locale lands in one file.
 */
export type MessageSource = MessageCatalogue | (() => Promise<{ default: MessageCatalogue }>);

/** Messages of one plugin, per locale. */
export type PluginMessages = Record<Locale, MessageSource>;

/** Resolves a message source to its catalogue. */
export async function loadMessageSource(source: MessageSource): Promise<MessageCatalogue> {
  return typeof source === 'function' ? (await source()).default : source;
}

/** What a plugin contributes; the single default export of `plugins/<id>/index.ts`. */
export interface PluginDefinition {
  id: string;
  routes?: PluginRoute[];
  settingsSections?: SettingsSection[];
  /** Controls in the top bar (signed-in users only), in plugin order. */
  headerItems?: HeaderItem[];
  messages: PluginMessages;
  /**
   * The plugin's stores as lazy factories, `{ accessTokens: () => import('./store') }` (same chunk name as its
   * pages), reached with `useStore('accessTokens')`; the names join `StoreMap` through `declare module`.
   */
  stores?: PluginStores;
}

/** Declares a plugin; identity at run time, a type check at compile time. */
export function definePlugin(def: PluginDefinition): PluginDefinition {
  return def;
}

/** Raised when two plugins claim the same id, route, sidebar key, header item or store. */
export class RegistryError extends Error {
  override name = 'RegistryError';
}

/** The plugins of this bundle, indexed; built once at start-up. */
export interface Registry {
  plugins: PluginDefinition[];
  sections: SettingsSection[];
  routes: PluginRoute[];
  /** The top-bar controls of all plugins, in plugin order. */
  headerItems: HeaderItem[];
  /** The store loaders of all plugins, by store name. */
  stores: PluginStores;
  /** Messages of all plugins merged for one locale (loaded on first use, then cached). */
  loadMessages(locale: Locale): Promise<MessageCatalogue>;
  section(key: string): SettingsSection | undefined;
}

/**
 * The app's registry for components that are not handed it (the top bar sits in frames of every kind): provided
 * once at the root, so nothing reads a module-level "last registry".
 */
export const RegistryContext = createContext<Registry | null>(null);

/**
 * Indexes plugins, refusing duplicate ids, sidebar keys, route paths, header items and store names (message ids:
 * `npm run check:messages`).
 */
export function createRegistry(plugins: PluginDefinition[]): Registry {
  const ids = new Set<string>();
  const headerItems = new Map<string, HeaderItem>();
  const keys = new Map<string, SettingsSection>();
  const paths = new Set<string>();
  const stores: Partial<Record<StoreName, StoreLoader<unknown>>> = {};
  for (const p of plugins) {
    if (ids.has(p.id)) throw new RegistryError(`duplicate plugin id "${p.id}"`);
    ids.add(p.id);
    for (const [name, load] of Object.entries(p.stores ?? {}) as Array<[StoreName, StoreLoader<unknown>]>) {
      if (stores[name]) throw new RegistryError(`duplicate store "${name}" (plugin "${p.id}")`);
      stores[name] = load;
    }
    for (const s of p.settingsSections ?? []) {
      if (keys.has(s.key)) throw new RegistryError(`duplicate settings section key "${s.key}" (plugin "${p.id}")`);
      keys.set(s.key, s);
    }
    for (const r of p.routes ?? []) {
      if (paths.has(r.path)) throw new RegistryError(`duplicate route "${r.path}" (plugin "${p.id}")`);
      paths.add(r.path);
    }
    for (const h of p.headerItems ?? []) {
      if (headerItems.has(h.key)) throw new RegistryError(`duplicate header item "${h.key}" (plugin "${p.id}")`);
      headerItems.set(h.key, h);
    }
  }
  const cache = new Map<Locale, Promise<MessageCatalogue>>();
  return {
    plugins,
    sections: [...keys.values()],
    routes: plugins.flatMap((p) => p.routes ?? []),
    headerItems: [...headerItems.values()],
    stores: stores as PluginStores,
    loadMessages(locale) {
      let m = cache.get(locale);
      if (!m) {
        m = Promise.all(plugins.map((p) => loadMessageSource(p.messages[locale]))).then((all) =>
          Object.assign({}, ...all),
        );
        // A failed load (e.g. offline) may be retried by the next call.
        m.catch(() => cache.delete(locale));
        cache.set(locale, m);
      }
      return m;
    },
    section: (key) => keys.get(key),
  };
}
