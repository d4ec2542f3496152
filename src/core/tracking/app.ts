import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { edition } from '../edition';
import type { RequestClient } from '../request';
import type { SessionStore } from '../stores/SessionStore';
import { installBrowserTracking } from './browser';
import { startPerfCollector } from './perf';
import { createBeaconSender } from './sender';
import { holdUntilSettled } from './settle';
import { createTracker, type Tracker } from './tracker';

// The app's tracking, as its start-up (src/app/start.tsx) wires it: the product's tracker and performance collector.

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

/** Sends a page view for every route change (the tracker waits 500 ms for the page to settle); sits in the router. */
export function PageViews({ tracker }: { tracker: Tracker }): null {
  const { pathname } = useLocation();
  useEffect(() => tracker.pageView(pathname), [pathname, tracker]);
  return null;
}
