import type { ComponentType } from 'react';
import type { Locale } from './edition';
import type { RootStore } from './stores/root';

/** A lazily loaded page module, so each plugin's screens land in their own named chunk. */
export type PageLoader = () => Promise<{ default: ComponentType }>;

/** Who may see a section or page: a plain flag, or an application the organisation must have. */
export type Permission = boolean | { app: string };

/** An entry of the settings sidebar, shown under `/users/settings/:key`. */
export interface SettingsSection {
  /** The sidebar key, also the URL segment. */
  key: string;
  /** Message id of the sidebar title. */
  messageId: string;
  /** Extra condition on top of the edition's menu rule; absent means open. */
  permission?: Permission;
  load: PageLoader;
  /** Sub-paths under the section handled by the same page (e.g. `create`). */
  subPaths?: string[];
}

/** A top-level page of the app (login, switch, notifications…). */
export interface PluginRoute {
  path: string;
  load: PageLoader;
  /** Permission names of which at least one must be true; empty or absent means open. */
  auth?: string[];
  /** `app` (default) wraps the page in the product frame; `bare` shows it alone (sign-in, landing pages). */
  frame?: 'app' | 'bare';
}

/** One locale's messages, keyed `<pluginId>.<area>.<element>`. */
export type MessageCatalogue = Record<string, string>;

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
  messages: PluginMessages;
  /** Builds this plugin's stores from the root store; their keys join the root store. */
  createStores?: (root: RootStore) => Record<string, unknown>;
  configSchema?: object;
}

/** Declares a plugin; identity at run time, a type check at compile time. */
export function definePlugin(def: PluginDefinition): PluginDefinition {
  return def;
}

/** Raised when two plugins claim the same id, route or sidebar key. */
export class RegistryError extends Error {
  override name = 'RegistryError';
}

/** The plugins of this bundle, indexed; built once at start-up. */
export interface Registry {
  plugins: PluginDefinition[];
  sections: SettingsSection[];
  routes: PluginRoute[];
  /** Messages of all plugins merged for one locale (loaded on first use, then cached). */
  loadMessages(locale: Locale): Promise<MessageCatalogue>;
  section(key: string): SettingsSection | undefined;
}

/** Indexes plugins, refusing duplicate ids, sidebar keys and route paths (message ids: `npm run check:messages`). */
export function createRegistry(plugins: PluginDefinition[]): Registry {
  const ids = new Set<string>();
  const keys = new Map<string, SettingsSection>();
  const paths = new Set<string>();
  for (const p of plugins) {
    if (ids.has(p.id)) throw new RegistryError(`duplicate plugin id "${p.id}"`);
    ids.add(p.id);
    for (const s of p.settingsSections ?? []) {
      if (keys.has(s.key)) throw new RegistryError(`duplicate settings section key "${s.key}" (plugin "${p.id}")`);
      keys.set(s.key, s);
    }
    for (const r of p.routes ?? []) {
      if (paths.has(r.path)) throw new RegistryError(`duplicate route "${r.path}" (plugin "${p.id}")`);
      paths.add(r.path);
    }
  }
  const cache = new Map<Locale, Promise<MessageCatalogue>>();
  return {
    plugins,
    sections: [...keys.values()],
    routes: plugins.flatMap((p) => p.routes ?? []),
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
