import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { EditionManifest } from '../schemas/edition';
import { registerMessages } from './i18n/index';
import type { ServerPlugin } from './plugin';

/** Where plugin folders live (`plugins/<id>/server/index.ts` marks a plugin with a server half). */
export const PLUGINS_DIR = path.resolve(import.meta.dirname, '../plugins');

const loaded = new Map<string, Promise<ServerPlugin[]>>();

/**
 * Every server slice in the code base, by id. The list derives from the plugin folders (no hand-written
 * list): each `plugins/<id>/server/index.ts` is imported by id and must default-export
 * `defineServerPlugin({ id: '<id>', … })`. Loading also registers each slice's error messages.
 *
 * Decision: migrations, message catalogues and admin CLI commands follow *every* discovered slice, while
 * HTTP routes (and provided services such as `ctx.tokenAuth`) follow only the edition's `plugins` list
 * (`editionServerPlugins`). So the same database serves any edition — switching the manifest never needs
 * a new database or a migration — and an error code resolves whatever the edition, but an edition only
 * answers the calls of its own sections.
 */
export function discoverServerPlugins(dir: string = PLUGINS_DIR): Promise<ServerPlugin[]> {
  let found = loaded.get(dir);
  if (!found) {
    found = load(dir);
    // A failed load is not cached, so a fixed file is picked up by the next attempt.
    found.catch(() => loaded.delete(dir));
    loaded.set(dir, found);
  }
  return found;
}

async function load(dir: string): Promise<ServerPlugin[]> {
  const ids = fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && fs.existsSync(path.join(dir, e.name, 'server', 'index.ts')))
    .map((e) => e.name)
    .sort();
  const plugins: ServerPlugin[] = [];
  for (const id of ids) {
    const file = path.join(dir, id, 'server', 'index.ts');
    const mod = (await import(pathToFileURL(file).href)) as { default?: ServerPlugin };
    const plugin = mod.default;
    if (!plugin || typeof plugin !== 'object' || plugin.id !== id) {
      throw new Error(`${file} must default-export defineServerPlugin({ id: '${id}', … })`);
    }
    if (plugin.messages) registerMessages(plugin.id, plugin.messages);
    plugins.push(plugin);
  }
  const commands = new Map<string, string>();
  for (const p of plugins) {
    for (const c of p.cli ?? []) {
      const other = commands.get(c.name);
      if (other) throw new Error(`admin command "${c.name}" is contributed by both "${other}" and "${p.id}"`);
      commands.set(c.name, p.id);
    }
  }
  return plugins;
}

/** The slices an edition mounts, in the order its manifest lists them (plugins without a server half are skipped). */
export function editionServerPlugins(edition: Pick<EditionManifest, 'plugins'>, all: ServerPlugin[]): ServerPlugin[] {
  const byId = new Map(all.map((p) => [p.id, p]));
  return edition.plugins.flatMap((id) => byId.get(id) ?? []);
}
