// Shared by the web app, the service and the build: no imports, so nothing else rides along into a bundle.

/** The cookie that records the chosen language; read first by the web app and the service, set by both. */
export const LOCALE_COOKIE = 'ak_user_locale';

/** The two locales the product speaks, in the order a language menu lists them. */
export const SUPPORTED_LOCALES = ['zh_CN', 'en_US'] as const;

/** One of them (the same union as the edition manifest's `Locale`). */
export type SupportedLocale = (typeof SUPPORTED_LOCALES)[number];

/**
 * Where a tag is used: `bcp47` for Intl, react-intl and Accept-Language (`zh-CN` / `en-US`), `html` for the
 * document's `lang` attribute (`zh-CN` / `en`), `dayjs` for dayjs's locale names (`zh-cn` / `en`).
 */
export type LocaleTagForm = 'bcp47' | 'html' | 'dayjs';

const TAGS: Record<SupportedLocale, Record<LocaleTagForm, string>> = {
  zh_CN: { bcp47: 'zh-CN', html: 'zh-CN', dayjs: 'zh-cn' },
  en_US: { bcp47: 'en-US', html: 'en', dayjs: 'en' },
};

/** The one mapping from our locale ids to language tags; anything but zh_CN is English, as everywhere else. */
export function localeTag(locale: SupportedLocale | string, form: LocaleTagForm = 'bcp47'): string {
  return (locale === 'zh_CN' ? TAGS.zh_CN : TAGS.en_US)[form];
}
