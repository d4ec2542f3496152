/**
 * The switch-org slice's column on a core table (migration `041-switch-org`).
 * Kysely sees it through the augmentation below, so the core schema names no plugin column.
 */

declare module '../../../server/db/schema' {
  interface MembershipsTable {
    /**
     * Copy of the organisation's `name_lower`, kept by triggers (never written by code): the chooser's sort
     * key, indexed with the user id so a page of organisations is one index range.
     */
    org_name_lower: string | null;
  }
}

export {};
