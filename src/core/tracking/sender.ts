import { LOG_ENDPOINT } from './limits';
import type { LogEntry, LogSender } from './queue';

/** What the default sender may use; injectable for tests. */
export interface BeaconSenderOptions {
  /** Endpoint URL; the service's log collector by default. */
  url?: string;
  /** `navigator.sendBeacon` bound to navigator, when available. */
  sendBeacon?: ((url: string, data: BodyInit) => boolean) | null;
  /** Fallback transport when beacons are unavailable or refused. */
  fetch?: typeof fetch;
}

function defaultBeacon(): BeaconSenderOptions['sendBeacon'] {
  if (typeof navigator === 'undefined' || typeof navigator.sendBeacon !== 'function') return null;
  return (url, data) => navigator.sendBeacon(url, data);
}

/** Posts a batch as JSON, by `sendBeacon` when the browser has it (survives page unload), else by fetch keepalive. */
export function createBeaconSender(options: BeaconSenderOptions = {}): LogSender {
  const url = options.url ?? LOG_ENDPOINT;
  const beacon = options.sendBeacon === undefined ? defaultBeacon() : options.sendBeacon;
  return async (batch: LogEntry[]) => {
    try {
      const json = JSON.stringify(batch);
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
      return res.ok;
    } catch {
      return false;
    }
  };
}
