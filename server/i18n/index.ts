import { en_US, type CoreCode } from './en_US';
import { zh_CN } from './zh_CN';
import { LOCALE_COOKIE, type SupportedLocale } from '../../schemas/locale';

export type { CoreCode } from './en_US';

/** The two languages the service answers in. */
export type ServerLocale = SupportedLocale;

/**
 * Error codes contributed by plugin server slices, keyed by plugin id. Each `plugins/<id>/server/messages.ts`
 * augments this interface (`declare module`) with `'<id>': <its codes>`, so `AppError` stays type-checked
 * without the core importing any plugin.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface PluginMessageCodes {}

/** An error code the service can answer with: the core's or one of a slice's. */
export type MessageCode = CoreCode | PluginMessageCodes[keyof PluginMessageCodes];

/** A slice's catalogue: the same codes in both languages (the type of `zh_CN` follows `en_US`). */
export interface ServerMessages<K extends string> {
  en_US: Record<K, string>;
  zh_CN: Record<K, string>;
}

/** Declares a slice's catalogue; `zh_CN` must have exactly `en_US`'s codes or the slice does not compile. */
export function defineServerMessages<K extends string>(messages: {
  en_US: Record<K, string>;
  zh_CN: NoInfer<Record<K, string>>;
}): ServerMessages<K> {
  return messages;
}

const core: Record<ServerLocale, Record<CoreCode, string>> = { zh_CN, en_US };
/** Registered slice catalogues: code → texts, and which plugin owns each code. */
const pluginTexts = new Map<string, { owner: string; zh_CN: string; en_US: string }>();

/**
 * Makes a slice's codes answerable. Called when the app or the CLI loads the slices (every discovered
 * slice, whatever the edition); registering the same plugin again replaces its catalogue. A code
 * defined by the core or by another plugin is refused, so one code always means one text.
 */
export function registerMessages(pluginId: string, messages: ServerMessages<string>): void {
  for (const [code, text] of pluginTexts) if (text.owner === pluginId) pluginTexts.delete(code);
  for (const code of Object.keys(messages.en_US)) {
    if (Object.hasOwn(en_US, code)) throw new Error(`plugin "${pluginId}": error code ${code} is a core code`);
    const other = pluginTexts.get(code);
    if (other) throw new Error(`plugin "${pluginId}": error code ${code} is already defined by "${other.owner}"`);
    const zh = messages.zh_CN[code];
    if (!zh) throw new Error(`plugin "${pluginId}": error code ${code} has no zh_CN text`);
    pluginTexts.set(code, { owner: pluginId, zh_CN: zh, en_US: messages.en_US[code] });
  }
}

/** Maps any language tag to a supported locale: zh and zh-TW count as zh_CN, anything else en_US. */
export function normalizeLocale(tag: string | undefined): ServerLocale | undefined {
  if (!tag) return undefined;
  const t = tag.trim().toLowerCase().replace('-', '_');
  if (!t) return undefined;
  return t.startsWith('zh') ? 'zh_CN' : 'en_US';
}

/** Picks the locale of a request: the locale cookie, else Accept-Language, else the edition default. */
export function resolveLocale(
  cookies: Record<string, string | undefined>,
  acceptLanguage: string | undefined,
  fallback: ServerLocale,
): ServerLocale {
  const fromCookie = normalizeLocale(cookies[LOCALE_COOKIE] ?? cookies.teambition_lang ?? cookies.aliyun_lang);
  if (fromCookie) return fromCookie;
  const first = acceptLanguage
    ?.split(',')
    .map((part) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.find((p) => p.trim().startsWith('q='));
      return { tag, q: q ? Number(q.trim().slice(2)) || 0 : 1 };
    })
    .filter((x) => x.tag && x.tag !== '*' && x.q > 0)
    .sort((a, b) => b.q - a.q)[0];
  return normalizeLocale(first?.tag) ?? fallback;
}

/** A parameter that reads differently per language (a field's name in an error that names the field). */
export type LocalizedText = Record<ServerLocale, string>;

/** The parameters of a message: plain values, or texts given in both languages. */
export type MessageParams = Record<string, string | number | LocalizedText>;

/** The message for a code in a locale, with `{name}` placeholders filled (a LocalizedText in that locale). */
export function translate(locale: ServerLocale, code: MessageCode, params: MessageParams = {}): string {
  const template = Object.hasOwn(en_US, code)
    ? (core[locale][code as CoreCode] ?? en_US[code as CoreCode])
    : (pluginTexts.get(code)?.[locale] ?? code);
  return template.replace(/\{(\w+)\}/g, (_, k: string) => {
    if (!(k in params)) return `{${k}}`;
    const value = params[k];
    return typeof value === 'object' ? value[locale] : String(value);
  });
}

/** True when a string is a known error code (used to map thrown errors). */
export function isMessageCode(code: string): code is MessageCode {
  return Object.hasOwn(en_US, code) || pluginTexts.has(code);
}
