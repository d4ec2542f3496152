import fs from 'node:fs';
import path from 'node:path';

/** Paths rsbuild's dev server answers itself besides the files of the build. */
const DEV_SERVER_PATHS = /^\/(rsbuild-hmr|rsbuild-dev-server|__open-in-editor)\b/;

/**
 * True when a request is for rsbuild (a file of the dev build or of its own, a hot update) rather than the service.
 * The build's shared files are on disk (`writeToDisk`) except hot updates; pages (HTML) and the edition's folder (its
 * catalogues and brand files) always come from the service.
 */
export function servedByDevServer(url: string, distDir: string): boolean {
  let pathname: string;
  try {
    pathname = decodeURIComponent(url.split('?')[0]);
  } catch {
    return false; // malformed: the service answers it
  }
  if (DEV_SERVER_PATHS.test(pathname) || pathname.includes('.hot-update.')) return true;
  if (pathname === '/' || pathname.endsWith('.html') || pathname.includes('..')) return false;
  try {
    return fs.statSync(path.join(distDir, pathname)).isFile();
  } catch {
    return false;
  }
}
