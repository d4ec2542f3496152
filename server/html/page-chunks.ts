import { matchPath } from 'react-router';
import type { PageChunks } from '../../schemas/page-chunks';
import { settingsSectionKey } from '../../schemas/page-paths';

/**
 * The lazy files the web app loads for the first render of `pathname`, as the app decides it (src/app/App.tsx,
 * preloadRoute, with the same rules): antd's root and texts, then the settings shell with the section, or the
 * route's page (with the frame unless bare). Settings pages count only with a session: without one the app sends
 * the visitor to sign in.
 */
export function pageChunkFiles(chunks: PageChunks, pathname: string, locale: string, signedIn: boolean): string[] {
  const files = [...chunks.common, ...(chunks.locales[locale] ?? [])];
  const key = settingsSectionKey(pathname);
  if (key !== undefined) {
    const own = Object.hasOwn(chunks.sections, key) ? chunks.sections[key] : undefined;
    if (signedIn && own) files.push(...chunks.settings, ...own);
  } else {
    const route = chunks.routes.find((r) => matchPath(r.path, pathname));
    if (route) files.push(...route.files);
  }
  return [...new Set(files)];
}
