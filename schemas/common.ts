import { Type, type Static } from '@sinclair/typebox';
import { COLOR_SCHEMES } from './color-scheme';

/** Wire shapes several slices answer or read the same way (server and `import type` only: this module loads TypeBox). */

/** Options of every closed object: a field the contract does not name is a 400, never silently ignored. */
export const closed = { additionalProperties: false } as const;

/** One of the two languages the product speaks (the wire form of `SupportedLocale` in `schemas/locale`). */
export const LocaleSchema = Type.Union([Type.Literal('zh_CN'), Type.Literal('en_US')]);
/** One of the two languages, as a request carries it. */
export type WireLocale = Static<typeof LocaleSchema>;

/** The account's colour scheme preference (the wire form of `ColorScheme` in `schemas/color-scheme`). */
export const ColorSchemeSchema = Type.Union(
  COLOR_SCHEMES.map((v) => Type.Literal(v)),
  { description: '`system` follows the device (the default), `light` or `dark` fixes the theme' },
);

/** `{ success: true }`, the answer of deletes and of the password change. */
export const SuccessSchema = Type.Object({ success: Type.Boolean() }, closed);
/** Static type of the success answer. */
export type Success = Static<typeof SuccessSchema>;

/** The organisation a `/uiless/` call is about, sent by the web client as `x-tenant-id` (else the current one). */
export const TenantHeadersSchema = Type.Object({ 'x-tenant-id': Type.Optional(Type.String({ maxLength: 64 })) });
/** Static type of the tenant headers. */
export type TenantHeaders = Static<typeof TenantHeadersSchema>;
