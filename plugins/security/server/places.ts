import fs from 'node:fs';
import net from 'node:net';
import { Reader, type CityResponse } from 'mmdb-lib';
import type { ServerLocale } from '../../../server/i18n/index';

/** The longest place the page is given. */
const PLACE_MAX = 200;

/** An address's approximate place in a language, or null when the database does not know it. */
export type Places = (address: string, locale: ServerLocale) => string | null;

/**
 * Opens a local MaxMind DB file (GeoLite2 / GeoIP2 City or Country, `GEOIP_DATABASE`) once, at start: a session's
 * place is then looked up in memory, never asked of anyone outside. A file that is not such a database fails the
 * start with its name. Places are the city, the region and the country the database names, in the reader's
 * language when it has it (English otherwise): "Hangzhou, Zhejiang, China", "中国 浙江 杭州".
 */
export function openPlaces(file: string): Places {
  let reader: Reader<CityResponse>;
  try {
    reader = new Reader<CityResponse>(fs.readFileSync(file));
  } catch (e) {
    throw new Error(`GEOIP_DATABASE ${file} is not a MaxMind DB file: ${(e as Error).message}`);
  }
  const v4Only = reader.metadata.ipVersion === 4;
  return (address, locale) => {
    // An IPv4 client seen on a dual-stack socket (`::ffff:1.2.3.4`) is looked up as IPv4.
    const ip = address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
    const family = net.isIP(ip);
    if (!family || (v4Only && family === 6)) return null;
    let found: CityResponse | null;
    try {
      found = reader.get(ip);
    } catch {
      return null;
    }
    if (!found) return null;
    const lang = locale === 'zh_CN' ? 'zh-CN' : 'en';
    const name = (r: { readonly names?: { readonly en?: string; readonly 'zh-CN'?: string } } | undefined) =>
      r?.names?.[lang] ?? r?.names?.en;
    const parts: string[] = [];
    for (const n of [name(found.city), name(found.subdivisions?.[0]), name(found.country)])
      if (n && !parts.includes(n)) parts.push(n);
    if (!parts.length) return null;
    const place = locale === 'zh_CN' ? parts.reverse().join(' ') : parts.join(', ');
    return place.slice(0, PLACE_MAX);
  };
}
