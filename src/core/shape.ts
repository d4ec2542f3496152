// Checks of data the page did not make itself (its configuration, the pageData the service brought), field by field and
// without a schema library: TypeBox or ajv would add their weight to every page's first scripts.

import type { LastUse } from '../../schemas/credential-uses';

/** A plain object (not null, not an array). */
export const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** A string or null (a date the service may not have). */
export const isStringOrNull = (v: unknown): v is string | null => v === null || typeof v === 'string';

/** Whether every one of `fields` of `record` is a string. */
export const hasStrings = (record: Record<string, unknown>, fields: readonly string[]): boolean =>
  fields.every((f) => typeof record[f] === 'string');

/** An array whose every item is a plain object passing `item`. */
export const isListOf = (v: unknown, item: (record: Record<string, unknown>) => boolean): boolean =>
  Array.isArray(v) && v.every((x: unknown) => isRecord(x) && item(x));

/** One page of a keyset-paged list: `{ [key]: items passing item, pages: { next_token: string | null } }`. */
export const isPageOf = (v: unknown, key: string, item: (record: Record<string, unknown>) => boolean): boolean =>
  isRecord(v) && isListOf(v[key], item) && isRecord(v.pages) && isStringOrNull(v.pages.next_token);

/** A credential's last use as the service answers it: a time, an address and the client (null when it did not say). */
export function isLastUse(v: unknown): v is LastUse {
  return (
    isRecord(v) &&
    Object.keys(v).length === 3 &&
    typeof v.at === 'string' &&
    typeof v.address === 'string' &&
    isStringOrNull(v.client)
  );
}
