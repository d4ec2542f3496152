import fs from 'node:fs';
import path from 'node:path';

/**
 * The checkout's root: the nearest folder above `from` holding a package.json. The service runs from its sources
 * (`server/`, one level down) under tsx and compiled (`dist/server/`, two levels down) under node, so a fixed `..`
 * would be right for one of them only.
 */
export function findProjectRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) return path.resolve(from, '..');
  }
}

/** Where the checkout lives, so defaults (editions, dist, plugins, schemas) do not depend on the working directory. */
export const projectRoot = findProjectRoot(import.meta.dirname);
