import type { EditionManifest } from '../../schemas/edition';

declare global {
  /** The edition manifest, folded into each bundle by the build (`source.define`). */
  const __EDITION__: EditionManifest;
}

/** This bundle's edition: branding, menus, links; other editions' data is absent from the bundle. */
export const edition: EditionManifest = __EDITION__;

export type { EditionManifest, Locale, Localized, MenuEntry, AppDescriptor } from '../../schemas/edition';
