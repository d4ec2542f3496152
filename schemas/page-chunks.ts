// What the build tells the service about an edition's lazy files (written by scripts/lib/page-chunks.ts, read by
// server/html/page-chunks.ts).

/** The shape of `page-chunks.json`: file lists (paths from the site root) per page and per kind of page. */
export interface PageChunks {
  /** Every page: antd's root. */
  common: string[];
  /** antd's texts and dayjs's locale, per app language. */
  locales: Record<string, string[]>;
  /** A settings page (`/users/settings/<key>`): the settings shell and the header items. */
  settings: string[];
  /**
   * Each plugin route (a react-router path) with its files (framed routes include the frame and header items), and
   * whether the service renders its first screen.
   */
  routes: { path: string; files: string[]; firstScreen?: boolean }[];
  /** Each settings section (its sidebar key) with its files, added to `settings` on that section's page. */
  sections: Record<string, string[]>;
  /** The sections whose first screen the service renders (for a signed-in visitor). */
  firstScreenSections?: string[];
  /** The not-found page (an unknown path): the page and the header items. Absent in a list of an older build. */
  notFound?: string[];
}
