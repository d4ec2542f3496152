import { describe, expect, it, vi } from 'vitest';
import { LOG_MAX_POST_BYTES, TRACKING_LIMITS } from './limits';
import {
  isLongTask,
  isResourceSampled,
  isSlowEvent,
  isSlowResource,
  isValidLoadTime,
  startPerfCollector,
  summarizeResource,
  toBatches,
  type ResourceLike,
} from './perf';
import { createLogQueue, type LogEntry } from './queue';
import { redactSecrets, sanitizeApiErrorLog, sanitizeErrorLog, scrubLogEntry, truncate } from './sanitize';
import { createBeaconSender, toPosts } from './sender';
import { holdUntilSettled, type HoldOptions } from './settle';
import { manualScheduler } from './test-scheduler';
import { createTracker } from './tracker';

const flushPromises = () => new Promise((r) => setTimeout(r, 0));

describe('limits', () => {
  it('holds every spec limit in one object', () => {
    expect(TRACKING_LIMITS).toMatchObject({
      maxUrlLength: 30000,
      maxErrorMessageLength: 10000,
      maxStackLength: 100000,
      maxBodyLength: 10000,
      apiErrorMessageLength: 50,
      longTaskMs: 50,
      eventTimingMs: 100,
      resourceTimingDelayMs: 8000,
      resourceSampleRate: 0.01,
      slowResourceMs: 300,
      slowResourceBytes: 300000,
      maxBatchEntries: 200,
      pageIdleCheckMs: 100,
      pageViewDelayMs: 500,
      maxLoadTimeMs: 20000,
      offlineQueueMax: 500,
    });
  });
});

describe('caps', () => {
  it('cuts URLs, messages, stacks and bodies to their limits', () => {
    const e = sanitizeErrorLog({ message: 'm'.repeat(10001), stack: 's'.repeat(100001), url: 'u'.repeat(30001) });
    expect([e.message.length, e.stack.length, e.url.length]).toEqual([10000, 100000, 30000]);
    const a = sanitizeApiErrorLog({
      url: 'u'.repeat(40000),
      message: 'x'.repeat(80),
      requestBody: { big: 'b'.repeat(20000) },
      responseBody: 'r'.repeat(10001),
      status: 500,
    });
    expect([a.url.length, a.message.length, a.requestBody.length, a.responseBody.length]).toEqual([
      30000, 50, 10000, 10000,
    ]);
    expect(sanitizeApiErrorLog({ message: 'short' }).message).toBe('short');
  });

  it('never throws on odd values', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => truncate(cyclic, 10)).not.toThrow();
    expect(truncate(undefined, 10)).toBe('');
  });
});

describe('usage-log queue', () => {
  it('batches after the flush delay, at most 200 entries per batch', async () => {
    const timer = manualScheduler();
    const batches: LogEntry[][] = [];
    const q = createLogQueue({ send: (b) => (batches.push(b), true), schedule: timer.schedule });
    for (let i = 0; i < 150; i++) q.push({ i });
    expect(batches).toHaveLength(0);
    timer.advance(TRACKING_LIMITS.flushDelayMs);
    await flushPromises();
    expect(batches.map((b) => b.length)).toEqual([150]);
    for (let i = 0; i < 450; i++) q.push({ i });
    await q.flush();
    expect(batches.slice(1).every((b) => b.length <= 200)).toBe(true);
    expect(batches.slice(1).reduce((n, b) => n + b.length, 0)).toBe(450);
  });

  it('keeps at most 500 entries while offline (oldest dropped) and sends them once online', async () => {
    let online = false;
    const sent: LogEntry[] = [];
    const q = createLogQueue({
      send: (b) => (sent.push(...b), true),
      schedule: manualScheduler().schedule,
      isOnline: () => online,
    });
    for (let i = 0; i < 620; i++) q.push({ i });
    await q.flush();
    expect(sent).toHaveLength(0);
    expect(q.pending()).toHaveLength(500);
    expect(q.pending()[0]).toEqual({ i: 120 });
    online = true;
    await q.flush();
    expect(sent).toHaveLength(500);
    expect(q.pending()).toHaveLength(0);
  });

  it('keeps a failed batch for the next flush and survives a throwing sender', async () => {
    let mode: 'fail' | 'throw' | 'ok' = 'fail';
    const sent: LogEntry[] = [];
    const q = createLogQueue({
      send: (b) => {
        if (mode === 'throw') throw new Error('x');
        if (mode === 'fail') return false;
        sent.push(...b);
        return true;
      },
      schedule: manualScheduler().schedule,
    });
    q.push({ a: 1 });
    await q.flush();
    mode = 'throw';
    q.push({ a: 2 });
    await expect(q.flush()).resolves.toBeUndefined();
    mode = 'ok';
    await q.flush();
    expect(sent).toEqual([{ a: 1 }, { a: 2 }]);
  });
});

describe('default sender', () => {
  it('posts JSON with sendBeacon when available', async () => {
    const beacon = vi.fn((_url: string, _data: BodyInit) => true);
    const fetchMock = vi.fn();
    expect(
      await createBeaconSender({ sendBeacon: beacon, fetch: fetchMock as unknown as typeof fetch })([{ a: 1 }]),
    ).toBe(true);
    expect(beacon.mock.calls[0][0]).toBe('/api/logs');
    const blob = beacon.mock.calls[0][1] as Blob;
    expect(blob.type).toBe('application/json');
    expect(JSON.parse(await blob.text())).toEqual([{ a: 1 }]);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('falls back to a JSON fetch POST without sendBeacon (or when the beacon is refused)', async () => {
    const fetchMock = vi.fn(async () => new Response(null, { status: 204 }));
    expect(
      await createBeaconSender({ sendBeacon: null, fetch: fetchMock as unknown as typeof fetch })([{ a: 1 }]),
    ).toBe(true);
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/logs',
      expect.objectContaining({ method: 'POST', body: '[{"a":1}]', keepalive: true }),
    );
    expect(
      await createBeaconSender({ sendBeacon: () => false, fetch: fetchMock as unknown as typeof fetch })([{ a: 2 }]),
    ).toBe(true);
    const failing = vi.fn(async () => {
      throw new TypeError('offline');
    });
    expect(await createBeaconSender({ sendBeacon: null, fetch: failing as unknown as typeof fetch })([{ a: 3 }])).toBe(
      false,
    );
  });
});

describe('tracker', () => {
  function setup() {
    const timer = manualScheduler();
    const batches: LogEntry[][] = [];
    const tracker = createTracker({
      send: (b) => (batches.push(b), true),
      schedule: timer.schedule,
      clock: () => 1_700_000_000_000,
      getUrl: () => 'https://host/users/settings/profile',
      getContext: () => ({
        userId: 'u1',
        userName: 'Ann',
        appName: 'account',
        pid: 'p1',
        edition: 'vpc',
        route: '/users/settings/profile',
      }),
    });
    const entries = async () => {
      await tracker.flush();
      return batches.flat();
    };
    return { timer, tracker, entries };
  }

  it('adds userId, userName, appName, pid, edition and route to every event', async () => {
    const { tracker, entries } = setup();
    tracker.capture('click_save', 'profile', { field: 'name' });
    expect(await entries()).toEqual([
      expect.objectContaining({
        type: 'event',
        action: 'click_save',
        page: 'profile',
        params: { field: 'name' },
        userId: 'u1',
        userName: 'Ann',
        appName: 'account',
        pid: 'p1',
        edition: 'vpc',
        route: '/users/settings/profile',
        time: 1_700_000_000_000,
      }),
    ]);
  });

  it('captures a page view 500 ms later, not before, and can cancel it', async () => {
    const { tracker, timer, entries } = setup();
    tracker.pageView('profile');
    timer.advance(499);
    expect(await entries()).toHaveLength(0);
    timer.advance(1);
    expect(await entries()).toEqual([expect.objectContaining({ action: 'pageview', page: 'profile' })]);
    const cancel = tracker.pageView('ssh');
    cancel();
    timer.advance(1000);
    expect(await entries()).toHaveLength(1);
  });

  it('logs errors and API errors with caps and ignore rules', async () => {
    const { tracker, entries } = setup();
    tracker.error(new Error('e'.repeat(20000)));
    tracker.error({ message: 'ResizeObserver loop limit exceeded' });
    tracker.apiError(
      { status: 500, message: 'a very long server message that will be cut at fifty characters', requestId: 'r1' },
      { url: '/individual/proxy/me', method: 'GET' },
    );
    tracker.apiError({ status: -2, message: 'timeout' }, { url: '/individual/proxy/me' });
    const logged = await entries();
    expect(logged).toHaveLength(2);
    expect((logged[0].message as string).length).toBe(10000);
    expect(logged[1]).toMatchObject({
      type: 'api',
      status: 500,
      requestId: 'r1',
      message: 'a very long server message that will be cut at fif',
    });
  });

  it('never throws into the app, even when its context or transport breaks', async () => {
    const tracker = createTracker({
      send: () => {
        throw new Error('send broke');
      },
      getContext: () => {
        throw new Error('context broke');
      },
      schedule: manualScheduler().schedule,
    });
    expect(() => tracker.capture('a', 'b')).not.toThrow();
    expect(() => tracker.pageView('b')).not.toThrow();
    expect(() => tracker.error(null)).not.toThrow();
    await expect(tracker.flush()).resolves.toBeUndefined();
  });
});

describe('performance rules', () => {
  it('discards load times above 20000 ms or negative', () => {
    expect(isValidLoadTime(0)).toBe(true);
    expect(isValidLoadTime(20000)).toBe(true);
    expect(isValidLoadTime(20001)).toBe(false);
    expect(isValidLoadTime(-1)).toBe(false);
    expect(isValidLoadTime(Number.NaN)).toBe(false);
  });

  it('samples resource timing at 1%', () => {
    expect(isResourceSampled(() => 0.0099)).toBe(true);
    expect(isResourceSampled(() => 0.01)).toBe(false);
    let seed = 1;
    const lcg = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const hits = Array.from({ length: 100000 }, () => isResourceSampled(lcg)).filter(Boolean).length;
    expect(hits).toBeGreaterThan(800);
    expect(hits).toBeLessThan(1200);
  });

  it('calls a resource slow at 300 ms or 300000 bytes', () => {
    const r = (duration: number, transferSize = 0): ResourceLike => ({ name: 'x', duration, transferSize });
    expect(isSlowResource(r(299))).toBe(false);
    expect(isSlowResource(r(300))).toBe(true);
    expect(isSlowResource(r(10, 299999))).toBe(false);
    expect(isSlowResource(r(10, 300000))).toBe(true);
    expect(summarizeResource({ name: 'u'.repeat(40000), duration: 12.4 })).toMatchObject({ duration: 12, slow: false });
    expect((summarizeResource({ name: 'u'.repeat(40000), duration: 1 }).name as string).length).toBe(30000);
  });

  it('keeps long tasks from 50 ms and events from 100 ms', () => {
    expect([isLongTask(49), isLongTask(50)]).toEqual([false, true]);
    expect([isSlowEvent(99), isSlowEvent(100)]).toEqual([false, true]);
  });

  it('splits into batches of at most 200', () => {
    expect(toBatches(Array.from({ length: 401 }, (_, i) => i)).map((b) => b.length)).toEqual([200, 200, 1]);
    expect(toBatches([])).toEqual([]);
  });
});

describe('performance collector', () => {
  function perfWith(loadEventEnd: number, resources: number) {
    return {
      getEntriesByType: (type: string) =>
        type === 'navigation'
          ? ([{ startTime: 0, loadEventEnd }] as unknown as PerformanceEntryList)
          : (Array.from({ length: resources }, (_, i) => ({
              name: `/r${i}`,
              duration: i % 2 ? 500 : 10,
              transferSize: 0,
            })) as unknown as PerformanceEntryList),
    };
  }

  it('checks every 100 ms for the loaded page, posts the load time, and 8000 ms later a sampled resource batch set', () => {
    const timer = manualScheduler();
    const batches: LogEntry[][] = [];
    let loaded = false;
    startPerfCollector({
      send: (b) => batches.push(b),
      schedule: timer.schedule,
      random: () => 0.001,
      performance: perfWith(1234, 450),
      PerformanceObserver: null,
      isLoaded: () => loaded,
    });
    timer.advance(300);
    expect(batches).toHaveLength(0);
    loaded = true;
    timer.advance(100);
    expect(batches).toEqual([[{ type: 'load', loadTime: 1234 }]]);
    timer.advance(7999);
    expect(batches).toHaveLength(1);
    timer.advance(1);
    expect(batches.slice(1).map((b) => b.length)).toEqual([200, 200, 50]);
    expect(JSON.parse(JSON.stringify(batches[1][1]))).toMatchObject({ type: 'resource', name: '/r1', slow: true });
  });

  it('posts no resources for the 99% not sampled, and nothing at all for implausible load times', () => {
    const timer = manualScheduler();
    const batches: LogEntry[][] = [];
    startPerfCollector({
      send: (b) => batches.push(b),
      schedule: timer.schedule,
      random: () => 0.5,
      performance: perfWith(800, 10),
      PerformanceObserver: null,
      isLoaded: () => true,
    });
    timer.advance(10000);
    expect(batches).toEqual([[{ type: 'load', loadTime: 800 }]]);
    const other: LogEntry[][] = [];
    startPerfCollector({
      send: (b) => other.push(b),
      schedule: timer.schedule,
      random: () => 0,
      performance: perfWith(25000, 10),
      PerformanceObserver: null,
      isLoaded: () => true,
    });
    timer.advance(10000);
    expect(other).toEqual([]);
  });

  it('never throws into the app when browser APIs or the sender break', () => {
    const timer = manualScheduler();
    const ThrowingObserver = function () {
      throw new Error('unsupported');
    } as unknown as typeof PerformanceObserver;
    const brokenPerf = {
      getEntriesByType: () => {
        throw new Error('perf broke');
      },
    };
    expect(() => {
      const c = startPerfCollector({
        send: () => {
          throw new Error('send broke');
        },
        schedule: timer.schedule,
        random: () => 0,
        performance: brokenPerf,
        PerformanceObserver: ThrowingObserver,
        isLoaded: () => true,
      });
      timer.advance(30000);
      c.stop();
    }).not.toThrow();
  });

  it('stops polling once a load time could only be discarded, and on stop()', () => {
    const timer = manualScheduler();
    startPerfCollector({
      send: () => {},
      schedule: timer.schedule,
      performance: perfWith(0, 0),
      PerformanceObserver: null,
      isLoaded: () => false,
    });
    timer.advance(TRACKING_LIMITS.maxLoadTimeMs + 1000);
    expect(timer.pendingCount()).toBe(0);
    const c = startPerfCollector({
      send: () => {},
      schedule: timer.schedule,
      performance: perfWith(0, 0),
      PerformanceObserver: null,
      isLoaded: () => false,
    });
    expect(timer.pendingCount()).toBe(1);
    c.stop();
    expect(timer.pendingCount()).toBe(0);
  });

  it('logs long tasks and slow events from the observers', () => {
    const callbacks: Array<{ type: string; cb: PerformanceObserverCallback; init: PerformanceObserverInit }> = [];
    const FakeObserver = class {
      cb: PerformanceObserverCallback;
      constructor(cb: PerformanceObserverCallback) {
        this.cb = cb;
      }
      observe(init: PerformanceObserverInit) {
        callbacks.push({ type: init.type!, cb: this.cb, init });
      }
      disconnect() {}
    } as unknown as typeof PerformanceObserver;
    const batches: LogEntry[][] = [];
    startPerfCollector({
      send: (b) => batches.push(b),
      schedule: manualScheduler().schedule,
      performance: null,
      PerformanceObserver: FakeObserver,
      isLoaded: () => false,
    });
    const list = (entries: Array<{ name: string; duration: number }>) =>
      ({ getEntries: () => entries.map((e) => ({ ...e, startTime: 1 })) }) as unknown as PerformanceObserverEntryList;
    const longtask = callbacks.find((c) => c.type === 'longtask')!;
    const event = callbacks.find((c) => c.type === 'event')!;
    expect((event.init as { durationThreshold?: number }).durationThreshold).toBe(100);
    longtask.cb(
      list([
        { name: 'self', duration: 49 },
        { name: 'self', duration: 51 },
      ]),
      {} as PerformanceObserver,
    );
    event.cb(
      list([
        { name: 'click', duration: 120 },
        { name: 'keydown', duration: 99 },
      ]),
      {} as PerformanceObserver,
    );
    expect(batches).toEqual([
      [{ type: 'longtask', name: 'self', duration: 51, startTime: 1 }],
      [{ type: 'event', name: 'click', duration: 120, startTime: 1 }],
    ]);
  });
});

describe('browser wiring', () => {
  it('logs window errors (not extension ones) and flushes when back online', async () => {
    const { installBrowserTracking } = await import('./browser');
    const tracker = {
      capture: vi.fn(),
      pageView: vi.fn(),
      error: vi.fn(),
      apiError: vi.fn(),
      flush: vi.fn(async () => {}),
    };
    const uninstall = installBrowserTracking(tracker, window);
    window.dispatchEvent(new ErrorEvent('error', { message: 'boom', filename: 'https://host/main.js' }));
    expect(tracker.error).toHaveBeenCalledWith(expect.objectContaining({ message: 'boom' }));
    window.dispatchEvent(new Event('online'));
    expect(tracker.flush).toHaveBeenCalledTimes(1);
    uninstall();
    window.dispatchEvent(new Event('online'));
    expect(tracker.flush).toHaveBeenCalledTimes(1);
  });
});

describe('secrets never leave the browser in a log entry', () => {
  it('drops secret query and fragment parameters of every URL, path or query in a string', () => {
    expect(redactSecrets('/users/emails?token=abc')).toBe('/users/emails');
    expect(redactSecrets('https://h/x?lang=en&code=1&ticket=2&flow=3&captcha_pass=4&pass=5#access_token=6')).toBe(
      'https://h/x?lang=en',
    );
    expect(redactSecrets('?password=pw&step=2')).toBe('?step=2');
    expect(redactSecrets('GET /a?session=s1 failed at https://h/b?key=k1')).toBe('GET /a failed at https://h/b');
    expect(redactSecrets('{"password":"pw","name":"Ann"}')).toBe('{"password":"[redacted]","name":"Ann"}');
    expect(redactSecrets('no url here, what?')).toBe('no url here, what?');
  });

  it('scrubs nested values and secret-named fields; never throws on cycles', () => {
    const cyclic: Record<string, unknown> = { a: '/x?token=t' };
    cyclic.self = cyclic;
    expect(() => scrubLogEntry(cyclic)).not.toThrow();
    expect(scrubLogEntry({ params: { href: '/p?secret=s&q=1', password: 'pw', n: 1, list: ['/l?code=c'] } })).toEqual({
      params: { href: '/p?q=1', password: '[redacted]', n: 1, list: ['/l'] },
    });
  });

  it('the tracker sends page views, errors and API errors without the token of an activation link', async () => {
    const batches: LogEntry[][] = [];
    const timer = manualScheduler();
    const tracker = createTracker({
      send: (b) => (batches.push(b), true),
      schedule: timer.schedule,
      getUrl: () => 'https://host/users/emails?token=abc123&from=mail',
      getContext: () => ({ route: '/users/emails' }),
    });
    tracker.pageView('/users/emails?token=abc123');
    timer.advance(500);
    tracker.error(new Error('failed loading /users/emails?token=abc123'));
    tracker.apiError(
      { status: 500, message: 'boom', requestId: 'r' },
      { url: '/users/ajax/emails/verify?token=abc123', method: 'POST', body: { token: 'abc123', password: 'pw' } },
    );
    await tracker.flush();
    const text = JSON.stringify(batches.flat());
    expect(batches.flat()).toHaveLength(3);
    expect(text).not.toContain('abc123');
    expect(text).not.toContain('"pw"');
    expect(batches.flat()[0]).toMatchObject({ url: 'https://host/users/emails?from=mail', page: '/users/emails' });
  });

  it('the default sender scrubs too (performance entries) and splits posts below the collector limit', async () => {
    const bodies: string[] = [];
    const fetchMock = vi.fn(async (_url: string, init: RequestInit) => {
      bodies.push(init.body as string);
      return new Response(null, { status: 204 });
    });
    const send = createBeaconSender({ sendBeacon: null, fetch: fetchMock as unknown as typeof fetch });
    const big = Array.from({ length: 40 }, (_, i) => ({
      type: 'resource',
      name: `/a.js?sig=s${i}`,
      pad: 'x'.repeat(3000),
    }));
    expect(await send(big)).toBe(true);
    expect(bodies.length).toBeGreaterThan(1);
    for (const b of bodies) expect(new TextEncoder().encode(b).length).toBeLessThanOrEqual(LOG_MAX_POST_BYTES);
    expect(bodies.flatMap((b) => JSON.parse(b))).toHaveLength(40);
    expect(bodies.join('')).not.toContain('sig=');
    // One entry larger than a post is shortened, not left to block the queue.
    expect(toPosts([{ stack: 's'.repeat(100_000) }])).toHaveLength(1);
  });

  it('drops a batch the collector refuses for good (413, 400) and keeps one refused for now (429, 5xx)', async () => {
    for (const [status, kept] of [
      [413, false],
      [400, false],
      [429, true],
      [503, true],
    ] as const) {
      const fetchMock = vi.fn(async () => new Response(null, { status }));
      const send = createBeaconSender({ sendBeacon: null, fetch: fetchMock as unknown as typeof fetch });
      expect(await send([{ a: 1 }]), String(status)).toBe(!kept);
    }
  });
});

describe('posts held until the page settled', () => {
  /** A stand-in window: an event target with a document whose state the test sets. */
  function page(readyState: DocumentReadyState = 'loading') {
    const document = Object.assign(new EventTarget(), {
      readyState,
      visibilityState: 'visible' as DocumentVisibilityState,
    });
    return Object.assign(new EventTarget(), { document }) as unknown as NonNullable<HoldOptions['target']> &
      EventTarget & {
        document: { readyState: DocumentReadyState; visibilityState: DocumentVisibilityState } & EventTarget;
      };
  }

  /** A hold over a recording sender, on a manual clock and a stand-in window. */
  function held(readyState: DocumentReadyState = 'loading') {
    const clock = manualScheduler();
    const win = page(readyState);
    const posted: LogEntry[][] = [];
    const send = holdUntilSettled((b) => !!posted.push(b), { target: win, schedule: clock.schedule });
    return { clock, win, posted, send };
  }

  it('posts nothing while the page loads, then every held batch in order, settleDelayMs after load', async () => {
    const { clock, win, posted, send } = held();
    const first = send([{ type: 'longtask', duration: 80 }]);
    const second = send([{ type: 'load', loadTime: 900 }]);
    clock.advance(10_000);
    await flushPromises();
    expect(posted).toEqual([]);
    win.document.readyState = 'complete';
    win.dispatchEvent(new Event('load'));
    clock.advance(TRACKING_LIMITS.settleDelayMs - 1);
    await flushPromises();
    expect(posted).toEqual([]);
    clock.advance(1);
    await flushPromises();
    // One post for both.
    expect(posted).toEqual([
      [
        { type: 'longtask', duration: 80 },
        { type: 'load', loadTime: 900 },
      ],
    ]);
    expect(await first).toBe(true);
    expect(await second).toBe(true);
    // Settled: later batches pass straight through.
    await send([{ type: 'event', duration: 120 }]);
    expect(posted).toHaveLength(2);
  });

  it('never puts more than the batch cap in one post', async () => {
    const clock = manualScheduler();
    const posted: LogEntry[][] = [];
    const send = holdUntilSettled((b) => !!posted.push(b), { target: page('complete'), schedule: clock.schedule });
    const cap = TRACKING_LIMITS.maxBatchEntries;
    const batch = (n: number, tag: string) => Array.from({ length: n }, (_, i) => ({ tag, i }));
    for (const [n, tag] of [
      [cap - 1, 'a'],
      [1, 'b'],
      [1, 'c'],
      [cap, 'd'],
    ] as const)
      void send(batch(n, tag));
    clock.advance(TRACKING_LIMITS.settleDelayMs);
    await flushPromises();
    expect(posted.map((p) => p.length)).toEqual([cap, 1, cap]);
    expect(
      posted
        .flat()
        .map((e) => e.tag)
        .join(''),
    ).toBe('a'.repeat(cap - 1) + 'bc' + 'd'.repeat(cap));
  });

  it('lets held batches go at once when the page is left or hidden', async () => {
    for (const leave of ['pagehide', 'hidden'] as const) {
      const { clock, win, posted, send } = held();
      void send([{ action: 'view' }]);
      if (leave === 'pagehide') win.dispatchEvent(new Event('pagehide'));
      else {
        win.document.visibilityState = 'hidden';
        win.document.dispatchEvent(new Event('visibilitychange'));
      }
      // Synchronously, in the same event: after it, a leaving page starts nothing.
      expect(posted, leave).toEqual([[{ action: 'view' }]]);
      expect(clock.pendingCount(), leave).toBe(0);
    }
  });

  it('counts an already loaded page from now, and gives up waiting for a load that never comes', async () => {
    const loaded = manualScheduler();
    const posts: LogEntry[][] = [];
    void holdUntilSettled((b) => !!posts.push(b), { target: page('complete'), schedule: loaded.schedule })([{ a: 1 }]);
    loaded.advance(TRACKING_LIMITS.settleDelayMs);
    await flushPromises();
    expect(posts).toEqual([[{ a: 1 }]]);

    const never = manualScheduler();
    const late: LogEntry[][] = [];
    void holdUntilSettled((b) => !!late.push(b), { target: page(), schedule: never.schedule })([{ b: 2 }]);
    never.advance(TRACKING_LIMITS.maxLoadTimeMs - 1);
    await flushPromises();
    expect(late).toEqual([]);
    never.advance(1);
    await flushPromises();
    expect(late).toEqual([[{ b: 2 }]]);
  });

  it('answers a held batch with its own post result, so the usage-log queue keeps and retries a failed one', async () => {
    const clock = manualScheduler();
    const win = page('complete');
    let accept = false;
    const posted: LogEntry[][] = [];
    const send = holdUntilSettled(
      async (b) => {
        posted.push(b);
        return accept;
      },
      { target: win, schedule: clock.schedule },
    );
    const queue = createLogQueue({ send, schedule: clock.schedule, isOnline: () => true });
    queue.push({ action: 'a' });
    clock.advance(TRACKING_LIMITS.flushDelayMs);
    await flushPromises();
    expect(posted).toEqual([]);
    clock.advance(TRACKING_LIMITS.settleDelayMs);
    await flushPromises();
    expect(posted).toEqual([[{ action: 'a' }]]);
    expect(queue.pending()).toEqual([{ action: 'a' }]);
    accept = true;
    await queue.flush();
    expect(posted).toHaveLength(2);
    expect(queue.pending()).toEqual([]);
  });
});
