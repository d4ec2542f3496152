/** Every tracking and performance limit from the spec, in one place; the collector reads them from here only. */
export const TRACKING_LIMITS = {
  /** URLs longer than this are cut before sending. */
  maxUrlLength: 30000,
  /** Error messages are cut to this many characters. */
  maxErrorMessageLength: 10000,
  /** Stacks are cut to this many characters. */
  maxStackLength: 100000,
  /** Request and response bodies in API logs are cut to this many characters. */
  maxBodyLength: 10000,
  /** API-error messages are cut to this many characters (they become grouping keys). */
  apiErrorMessageLength: 50,
  /** Long tasks at or above this duration (ms) are logged. */
  longTaskMs: 50,
  /** Interaction events at or above this duration (ms) are logged. */
  eventTimingMs: 100,
  /** Resource timings are collected this long (ms) after load, so late resources are included. */
  resourceTimingDelayMs: 8000,
  /** Share of page loads whose resource timings are collected. */
  resourceSampleRate: 0.01,
  /** A resource at least this slow (ms) is "slow". */
  slowResourceMs: 300,
  /** A resource at least this large (bytes) is "slow". */
  slowResourceBytes: 300000,
  /** At most this many entries per posted batch (resource timings and usage logs). */
  maxBatchEntries: 200,
  /** Interval (ms) of the check for the page having gone idle. */
  pageIdleCheckMs: 100,
  /** A page view is captured this long (ms) after navigation, once the route settled. */
  pageViewDelayMs: 500,
  /** Performance data with a load time above this (ms), or negative, is discarded as bogus. */
  maxLoadTimeMs: 20000,
  /** Unsent logs kept while offline or failing; the oldest are dropped beyond this. */
  offlineQueueMax: 500,
  /** How long (ms) usage logs gather before a batch is sent; ours, not the spec's. */
  flushDelayMs: 1000,
  /** Nothing is posted until this long (ms) after the page's load event; ours, not the spec's. */
  settleDelayMs: 3000,
} as const;

/** The shape of the limits, for collectors configured with other values in tests. */
export type TrackingLimits = { [K in keyof typeof TRACKING_LIMITS]: number };

/** The log-collection endpoint of the account service. */
export const LOG_ENDPOINT = '/api/logs';

/** The collector's largest accepted post, in bytes (it answers 413 beyond); the sender splits batches below it. */
export const LOG_MAX_POST_BYTES = 64 * 1024;
