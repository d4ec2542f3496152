import { matchPath } from 'react-router';
import type { PageChunks } from '../../schemas/page-chunks';
import { CORE_PAGES, settingsSectionKey } from '../../schemas/page-paths';

/** What the service knows of the page at a path, from the build's page-chunks.json (the plugins' declarations). */
export interface ServedPage {
  /** The lazy files its first render needs. */
  files: string[];
  /** Whether the service renders its first screen. */
  firstScreen: boolean;
  /** Whether the web app has a page there: a plugin's route, a settings page or one of the app's own; else 404. */
  found: boolean;
}

/**
 * The lazy files the web app loads for the first render of `pathname`: antd's root and texts, then the settings
 * shell with the section, or the route's page (with the frame unless bare), or the not-found page. Settings pages
 * count only with a session: without one the app sends the visitor to sign in. Any `/users/settings/…` path is a
 * page (the settings shell sends an unknown section to the first one, as the app always did). Without the list (an
 * older build, a test's stand-in bundle) every path is a page, with no files named and no first screen.
 */
export function servedPage(
  chunks: PageChunks | undefined,
  pathname: string,
  locale: string,
  signedIn: boolean,
): ServedPage {
  if (!chunks) return { files: [], firstScreen: false, found: true };
  const files = [...chunks.common, ...(chunks.locales[locale] ?? [])];
  let firstScreen = false;
  let found = true;
  const key = settingsSectionKey(pathname);
  if (key !== undefined) {
    const own = Object.hasOwn(chunks.sections, key) ? chunks.sections[key] : undefined;
    if (signedIn && own) files.push(...chunks.settings, ...own);
    firstScreen = signedIn && !!own && !!chunks.firstScreenSections?.includes(key);
  } else if (!CORE_PAGES.includes(pathname)) {
    const route = chunks.routes.find((r) => matchPath(r.path, pathname));
    files.push(...(route?.files ?? chunks.notFound ?? []));
    firstScreen = !!route?.firstScreen;
    found = !!route;
  }
  return { files: [...new Set(files)], firstScreen, found };
}

/** The first settings section of `menu` that the build has (where `/users/settings` leads; without the list: the first). */
export function settingsHome(chunks: PageChunks | undefined, menu: readonly { key: string }[]): string | undefined {
  const first = menu.find((e) => !chunks || Object.hasOwn(chunks.sections, e.key));
  return first && `/users/settings/${first.key}`;
}
