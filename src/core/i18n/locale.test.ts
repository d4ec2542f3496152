import { describe, expect, it, vi } from 'vitest';
import {
  FALLBACK_LOCALE,
  LOCALE_COOKIES,
  localeTag,
  normalizeLocale,
  readCookie,
  resolveLocale,
  writeCookie,
} from './locale';

describe('normalizeLocale', () => {
  it('maps zh and zh-TW (any zh) to zh_CN', () => {
    for (const tag of ['zh', 'zh-CN', 'zh_CN', 'zh-TW', 'zh_TW', 'ZH-tw', 'zh-Hans', ' zh '])
      expect(normalizeLocale(tag)).toBe('zh_CN');
  });
  it('maps anything else to en_US', () => {
    for (const tag of ['en', 'en_US', 'en-GB', 'ja', 'fr-FR', '', 'zhx', 'cn'])
      expect(normalizeLocale(tag)).toBe('en_US');
  });
});

describe('readCookie', () => {
  it('finds a cookie among others, decodes it, and tolerates bad encoding', () => {
    expect(readCookie('a=1; ak_user_locale=en_US; b=2', 'ak_user_locale')).toBe('en_US');
    expect(readCookie('x=%E4%B8%AD', 'x')).toBe('中');
    expect(readCookie('x=%E4%B8', 'x')).toBe('%E4%B8');
    expect(readCookie('teambition_lang_x=zh; junk', 'teambition_lang')).toBeUndefined();
    expect(readCookie('', 'x')).toBeUndefined();
  });
});

describe('resolveLocale', () => {
  it('lets a locale cookie decide, in the order ak_user_locale, teambition_lang, aliyun_lang', () => {
    expect(LOCALE_COOKIES).toEqual(['ak_user_locale', 'teambition_lang', 'aliyun_lang']);
    expect(resolveLocale('aliyun_lang=en', 'zh_CN')).toBe('en_US');
    expect(resolveLocale('aliyun_lang=en; teambition_lang=zh', 'en_US')).toBe('zh_CN');
    expect(resolveLocale('aliyun_lang=zh; teambition_lang=zh; ak_user_locale=en_US', 'zh_CN')).toBe('en_US');
    expect(resolveLocale('teambition_lang=zh-TW', 'en_US')).toBe('zh_CN');
  });
  it('falls back to the edition default, else zh_CN', () => {
    expect(resolveLocale('other=1', 'en_US')).toBe('en_US');
    expect(resolveLocale('ak_user_locale=', 'en_US')).toBe('en_US');
    expect(resolveLocale('')).toBe('zh_CN');
    expect(FALLBACK_LOCALE).toBe('zh_CN');
  });
});

describe('localeTag', () => {
  it('gives the html lang attribute of each locale', () => {
    expect(localeTag('zh_CN', 'html')).toBe('zh-CN');
    expect(localeTag('en_US', 'html')).toBe('en');
  });

  it('gives the BCP 47 tag for Intl and Accept-Language, and the dayjs locale name', () => {
    expect(localeTag('zh_CN')).toBe('zh-CN');
    expect(localeTag('en_US')).toBe('en-US');
    expect(localeTag('zh_CN', 'dayjs')).toBe('zh-cn');
    expect(localeTag('en_US', 'dayjs')).toBe('en');
  });
});

describe('writeCookie', () => {
  it('writes a preference for a year on the whole site, encoded, and readCookie reads it back', () => {
    const set = vi.spyOn(document, 'cookie', 'set');
    writeCookie(document, 'ak_pref_test', 'America/Argentina/Buenos_Aires');
    expect(set).toHaveBeenCalledWith(
      'ak_pref_test=America%2FArgentina%2FBuenos_Aires; path=/; max-age=31536000; SameSite=Lax',
    );
    set.mockRestore();
    expect(readCookie(document.cookie, 'ak_pref_test')).toBe('America/Argentina/Buenos_Aires');
    document.cookie = 'ak_pref_test=; path=/; max-age=0';
  });
});
