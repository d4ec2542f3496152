import { LOG_ENDPOINT, LOG_MAX_POST_BYTES } from './limits';
import type { LogEntry, LogSender } from './queue';
import { scrubLogEntry } from './sanitize';

/** What the default sender may use; injectable for tests. */
export interface BeaconSenderOptions {
  /** Endpoint URL; the service's log collector by default. */
  url?: string;
  /** `navigator.sendBeacon` bound to navigator, when available. */
  sendBeacon?: ((url: string, data: BodyInit) => boolean) | null;
  /** Fallback transport when beacons are unavailable or refused. */
  fetch?: typeof fetch;
  /** Largest post in bytes; the collector's limit by default. */
  maxPostBytes?: number;
}

function defaultBeacon(): BeaconSenderOptions['sendBeacon'] {
  if (typeof navigator === 'undefined' || typeof navigator.sendBeacon !== 'function') return null;
  return (url, data) => navigator.sendBeacon(url, data);
}

const encoder = new TextEncoder();
const byteLength = (s: string) => encoder.encode(s).length;

/** An entry cut to fit one post: its long strings shortened, or null when even that does not fit. */
function fitEntry(entry: LogEntry, maxBytes: number): LogEntry | null {
  const cut = Math.floor(maxBytes / 8);
  const shortened = Object.fromEntries(
    Object.entries(entry).map(([k, v]) => [k, typeof v === 'string' && v.length > cut ? v.slice(0, cut) : v]),
  );
  return byteLength(JSON.stringify([shortened])) <= maxBytes ? shortened : null;
}

/** Splits a batch into JSON posts of at most `maxBytes` each (an entry too large alone is shortened or dropped). */
export function toPosts(batch: readonly LogEntry[], maxBytes: number = LOG_MAX_POST_BYTES): string[] {
  const posts: string[] = [];
  let current: string[] = [];
  let size = 2; // the brackets
  for (const raw of batch) {
    let json = JSON.stringify(raw);
    let bytes = byteLength(json);
    if (bytes + 2 > maxBytes) {
      const fitted = fitEntry(raw, maxBytes);
      if (!fitted) continue;
      json = JSON.stringify(fitted);
      bytes = byteLength(json);
    }
    if (current.length && size + 1 + bytes > maxBytes) {
      posts.push(`[${current.join(',')}]`);
      current = [];
      size = 2;
    }
    current.push(json);
    size += bytes + (current.length > 1 ? 1 : 0);
  }
  if (current.length) posts.push(`[${current.join(',')}]`);
  return posts;
}

/**
 * Posts a batch as JSON, by `sendBeacon` when the browser has it (survives page unload), else by fetch keepalive;
 * secrets of URLs dropped first, split into posts the collector accepts. Resolves true when every post was
 * accepted or refused for good (a 4xx other than 408/429: retrying could not help), false to retry later.
 */
export function createBeaconSender(options: BeaconSenderOptions = {}): LogSender {
  const url = options.url ?? LOG_ENDPOINT;
  const maxBytes = options.maxPostBytes ?? LOG_MAX_POST_BYTES;
  const beacon = options.sendBeacon === undefined ? defaultBeacon() : options.sendBeacon;
  const postOne = async (json: string): Promise<boolean> => {
    if (beacon) {
      try {
        if (beacon(url, new Blob([json], { type: 'application/json' }))) return true;
      } catch {
        // fall through to fetch
      }
    }
    const doFetch = options.fetch ?? (typeof fetch === 'function' ? fetch : undefined);
    if (!doFetch) return false;
    const res = await doFetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Requested-With': 'XMLHttpRequest' },
      body: json,
      keepalive: true,
      credentials: 'include',
    });
    return res.ok || (res.status >= 400 && res.status < 500 && res.status !== 408 && res.status !== 429);
  };
  return async (batch: LogEntry[]) => {
    try {
      // Whatever posts through here (tracker, performance collector) leaves without the secrets of its URLs.
      for (const json of toPosts(batch.map(scrubLogEntry), maxBytes)) if (!(await postOne(json))) return false;
      return true;
    } catch {
      return false;
    }
  };
}
