import { edition } from '../core/edition';
import type { RequestClient } from '../core/request';
import type { SessionStore } from '../core/stores/SessionStore';
import {
  createBeaconSender,
  createTracker,
  holdUntilSettled,
  installBrowserTracking,
  startPerfCollector,
  type Tracker,
} from '../core/tracking';

/** The analytics app name events of this product are grouped under. */
export const TRACKING_APP_NAME = 'account-settings';

/** Starts usage tracking and the performance collector for this page; failures never reach the app. */
export function startAppTracking(session: SessionStore, client: RequestClient): Tracker {
  // fetch keepalive rather than sendBeacon: it can carry X-Requested-With, which the collector requires. Nothing
  // leaves while the page is still loading.
  const send = holdUntilSettled(createBeaconSender({ sendBeacon: null }), { target: window });
  const tracker = createTracker({
    send,
    getContext: () => ({
      userId: session.user?.id,
      userName: session.user?.name,
      appName: TRACKING_APP_NAME,
      pid: edition.id,
      edition: edition.id,
      route: window.location.pathname,
    }),
  });
  installBrowserTracking(tracker, window);
  startPerfCollector({
    send,
    performance: window.performance,
    PerformanceObserver: window.PerformanceObserver,
    isLoaded: () => document.readyState === 'complete',
  });
  client.configure({ report: (error, request) => tracker.apiError(error, request) });
  return tracker;
}
