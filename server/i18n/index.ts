import { en_US, type MessageCode } from './en_US';
import { zh_CN } from './zh_CN';

export type { MessageCode } from './en_US';

/** The two languages the service answers in. */
export type ServerLocale = 'zh_CN' | 'en_US';

const catalogues: Record<ServerLocale, Record<MessageCode, string>> = { zh_CN, en_US };

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
  const fromCookie = normalizeLocale(cookies.ak_user_locale ?? cookies.teambition_lang ?? cookies.aliyun_lang);
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

/** The message for a code in a locale, with `{name}` placeholders filled. */
export function translate(
  locale: ServerLocale,
  code: MessageCode,
  params: Record<string, string | number> = {},
): string {
  const template = catalogues[locale][code] ?? en_US[code];
  return template.replace(/\{(\w+)\}/g, (_, k: string) => (k in params ? String(params[k]) : `{${k}}`));
}

/** True when a string is a known error code (used to map thrown errors). */
export function isMessageCode(code: string): code is MessageCode {
  return Object.hasOwn(en_US, code);
}
