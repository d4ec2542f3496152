import { LOCALE_COOKIE } from '../../../schemas/locale';
import type { Locale } from '../edition';

export { LOCALE_COOKIE, localeTag, type LocaleTagForm } from '../../../schemas/locale';

/** Cookie names that may carry the user's language, in the order they are trusted. */
export const LOCALE_COOKIES = [LOCALE_COOKIE, 'teambition_lang', 'aliyun_lang'] as const;

/** The locale used when neither a cookie nor the edition says otherwise. */
export const FALLBACK_LOCALE: Locale = 'zh_CN';

/** Maps any language tag to one of our two locales: zh and zh-TW (any zh) to zh_CN, the rest to en_US. */
export function normalizeLocale(tag: string): Locale {
  return /^zh([-_].*)?$/i.test(tag.trim()) ? 'zh_CN' : 'en_US';
}

/** Writes one of the app's preference cookies (language, time zone): for a year, the whole site, same-site. */
export function writeCookie(doc: Document, name: string, value: string): void {
  doc.cookie = `${name}=${encodeURIComponent(value)}; path=/; max-age=31536000; SameSite=Lax`;
}

/** Reads one cookie's value from a `document.cookie` style string. */
export function readCookie(cookies: string, name: string): string | undefined {
  for (const part of cookies.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return part.slice(eq + 1).trim();
      }
    }
  }
  return undefined;
}

/** The locale to show: a locale cookie decides, else the edition default, else zh_CN. */
export function resolveLocale(cookies: string, editionDefault?: Locale): Locale {
  for (const name of LOCALE_COOKIES) {
    const v = readCookie(cookies, name);
    if (v) return normalizeLocale(v);
  }
  return editionDefault ?? FALLBACK_LOCALE;
}
