// `npm run bench:web`: Lighthouse (mobile preset, the browser really slowed down: devtools throttling) in Debian's
// Chromium against the real service, signed in, on every page of the product. Prints score, LCP, TBT and transferred bytes per page, and TBT by
// thread time: the blocking of the same tasks had the page had the cores to itself (on a small shared machine much of a
// task's wall time is waiting for a core; scripts/lib/main-thread.ts).
//   EDITION=global npm run bench:web       another edition (built first when missing)
//   BENCH_WEB_RUNS=1 npm run bench:web     runs per page: the table gives each figure's median and the range of the scores
//                                          (default 5: on a shared two-core machine one page's score moves ±0.05 from
//                                          run to run; Lighthouse's own advice is the median of five)
//   BENCH_WEB_PAGES=login,tokens           only some pages (keys of PAGES below)
//   BENCH_WEB_SAVE=/tmp/lh                 also keep each report (<page>.json) and trace (<page>.trace.json) there
//   BENCH_WEB_ARTIFACTS=/tmp/art           keep Lighthouse's artifacts of each run (<page>-<run>/) to audit them again
//   BENCH_WEB_VERBOSE=1                    also print each run's figures (speed index, the observed first paint)
//   BENCH_WEB_THROTTLING=simulate          Lighthouse's simulation from an unthrottled run instead (its default method)
//   BENCH_WEB_THREAD_TIME=0                leave out the second audit of each run at thread time (the columns "score at
//                                          thread time": Lighthouse's score of the same trace with each task of the
//                                          page's thread lasting its thread time, scripts/lib/main-thread.ts)
//   BENCH_WEB_SHARED_CPU=1                 the browser shares the cores equally with the service, the proxy and Lighthouse
//   BENCH_WEB_DIRECT=1                     the browser talks to the service itself (plain HTTP/1.1)
//   BENCH_WEB_BLOCK='*/api/logs'            block requests matching a pattern (what would the page score without them?)
// By default the browser reaches the service through Debian's nginx with TLS and HTTP/2 (scripts/lib/nginx.ts), as
// it reaches a deployment: browsers speak HTTP/2 only over TLS, and over HTTP/1.1 a page's 40–50 requests queue on
// six connections (about 1.5 s more LCP under the mobile preset's simulated network). Without nginx: direct.
// The browser stands for a phone, and the service, the proxy and Lighthouse for machines elsewhere: they run at a lower
// priority than the browser, so that serving a request does not take a core from the page in the middle of a task
// (Lighthouse's simulation multiplies each task's wall time by 4; on two shared cores a 2 ms task often took 30).
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import puppeteer from 'puppeteer-core';
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';
import { loadFirstScreenRenderer } from '../server/html/first-screen';
import { CHROMIUM_ARGS, CHROMIUM_PATH, CJK_FONT } from './lib/chromium';
import { atThreadTime, mainThreadFigures, type TraceEvent } from './lib/main-thread';
import { NGINX, selfSignedCertificate, startNginx } from './lib/nginx';
import { setTreePriority } from './lib/priority';
import { createOrg, createUser, installApp } from '../server/services/accounts';

/** The pages measured: key → path (signed in unless `public`). Pages an edition lacks are skipped. */
const PAGES: Record<string, { path: string; public?: boolean; plugin: string }> = {
  login: { path: '/users/login', public: true, plugin: 'login' },
  recovery: { path: '/users/resetpassword', public: true, plugin: 'reset-password' },
  profile: { path: '/users/settings/profile', plugin: 'profile' },
  tokens: { path: '/users/settings/personalAccessToken', plugin: 'access-tokens' },
  ssh: { path: '/users/settings/ssh', plugin: 'ssh-keys' },
  packages: { path: '/users/settings/packagesCredential', plugin: 'packages-credential' },
  'third-party': { path: '/users/settings/third-party', plugin: 'third-party' },
  inbox: { path: '/users/notifications', plugin: 'notifications' },
  organizations: { path: '/users/switch/organization', plugin: 'switch-org' },
};

const PASSWORD = 'Bench#12345';

/** The nice value of the service, the proxy and Lighthouse while the browser measures (the browser keeps 0). */
const BACKGROUND_NICE = 10;
const sharedCpu = !!process.env.BENCH_WEB_SHARED_CPU;
/** Each run is audited a second time at thread time (BENCH_WEB_THREAD_TIME=0 leaves that out). */
/**
 * By default the browser is really slowed (network and CPU: Lighthouse's `devtools` method), so what the bench reports
 * is what the page did on a phone's network and core. BENCH_WEB_THROTTLING=simulate: Lighthouse's simulation from an
 * unthrottled run (its own default), which counts every request that ended before the observed LCP into the LCP, so a
 * painted page whose scripts arrive before its first paint on a fast machine is simulated as if it waited for them
 * (docs/performance.md).
 */
const devtoolsThrottling = process.env.BENCH_WEB_THROTTLING !== 'simulate';
const quietAudit = process.env.BENCH_WEB_THREAD_TIME !== '0' && !devtoolsThrottling;

/** One page's figures. */
interface Row {
  page: string;
  score: number;
  lcp: number;
  tbt: number;
  cls: number;
  /** Blocking of the same tasks by their thread time (scripts/lib/main-thread.ts): the page's own work. */
  cpuTbt: number;
  /** Lighthouse's score and TBT for the same run audited at thread time (`atThreadTime`): the page on an idle host. */
  quiet?: { score: number; tbt: number };
  fcp: number;
  /** Speed index: Lighthouse weighs in the speed of the real (unthrottled) paints, 1.4× the observed one. */
  si: number;
  /** The first paint as it really happened here (not simulated): late when Chromium is slow to draw a frame. */
  observedFcp: number;
  bytes: number;
  requests: number;
  /** The lowest and highest score of the page's runs (the row holds each figure's median). */
  scoreRange?: [number, number];
  /** The lowest and highest TBT of the page's runs. */
  tbtRange?: [number, number];
  /** The same for the runs audited at thread time. */
  quietRange?: [number, number];
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
/** The figures a page's row gives as the median of its runs. */
const MEDIAN_FIGURES = [
  'score',
  'lcp',
  'tbt',
  'cls',
  'cpuTbt',
  'fcp',
  'si',
  'observedFcp',
  'bytes',
  'requests',
] as const;

async function main(): Promise<void> {
  const root = path.resolve(import.meta.dirname, '..');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'account-bench-web-'));
  const viaNginx = !process.env.BENCH_WEB_DIRECT && !!NGINX;
  // Behind the proxy the service trusts its X-Forwarded-Proto, as a deployment behind one is configured: the page's
  // API base is then https, like the page (else CSP and mixed-content rules block the calls the page makes).
  const config = loadConfig({
    ...process.env,
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    ...(viaNginx ? { TRUST_PROXY: 'loopback' } : {}),
  });
  const edition = config.edition;
  if (!fs.existsSync(path.join(config.distDir, edition, 'index.html'))) {
    console.log(`building the ${edition} edition…`);
    execFileSync('npx', ['tsx', 'scripts/build.ts', '--edition', edition], { cwd: root, stdio: 'inherit' });
  }
  if (!fs.existsSync(CJK_FONT)) {
    console.warn(
      `no CJK font at ${CJK_FONT} (npm run setup installs it): Chinese pages draw as boxes and lay out slower than on a phone`,
    );
  }
  const app = await buildApp({ ...config, logger: false, scheduler: false });
  let chrome: chromeLauncher.LaunchedChrome | undefined;
  let proxy: { stop(): void } | undefined;
  try {
    await createOrg(app.ctx, 'Bench');
    for (const key of ['codeup', 'packages']) await installApp(app.ctx, 'Bench', key);
    await createUser(app.ctx, { username: 'bench', password: PASSWORD, org: 'Bench', email: 'bench@example.com' });
    await app.listen({ port: 0, host: '127.0.0.1' });
    // As a running service has it: the first page measured does not wait for the renderer of first screens to load.
    await loadFirstScreenRenderer(config.distDir, edition);
    const servicePort = (app.server.address() as { port: number }).port;
    const cookie = await signIn(`http://127.0.0.1:${servicePort}`);
    let base = `http://127.0.0.1:${servicePort}`;
    let transport = 'direct, HTTP/1.1';
    if (viaNginx) {
      const listen = await freePort();
      proxy = startNginx(dataDir, { listen, upstreams: [servicePort], tls: selfSignedCertificate(dataDir) });
      base = `https://127.0.0.1:${listen}`;
      transport = 'through nginx, TLS and HTTP/2';
      const master = Number(fs.readFileSync(path.join(dataDir, 'nginx.pid'), 'utf8'));
      if (!sharedCpu) setTreePriority(master, BACKGROUND_NICE);
    } else if (!process.env.BENCH_WEB_DIRECT) {
      console.log('nginx is missing (npm run setup installs it): measuring the service directly over HTTP/1.1');
    }

    // A visitor who signed in through the login page carries the session cookie.
    const [sessionName, sessionValue] = splitCookie(cookie);
    const signedInCookies = [{ name: sessionName, value: sessionValue }].map((c) => ({
      ...c,
      domain: new URL(base).hostname,
      path: '/',
      secure: base.startsWith('https:'),
    }));
    // This process (the service and Lighthouse) yields to the browser; each browser is then raised back.
    if (!sharedCpu) setTreePriority(process.pid, BACKGROUND_NICE);
    const runs = Math.max(1, Number(process.env.BENCH_WEB_RUNS ?? 5));
    const artifacts = process.env.BENCH_WEB_ARTIFACTS;
    const only = process.env.BENCH_WEB_PAGES?.split(',').filter(Boolean);
    const rows: Row[] = [];
    for (const [key, page] of Object.entries(PAGES)) {
      if (only && !only.includes(key)) continue;
      if (!app.ctx.edition.plugins.includes(page.plugin)) continue;
      const samples: Row[] = [];
      for (let i = 0; i < runs; i++) {
        // A fresh browser (and cookie jar) per run. The session goes into the jar, not into a request header:
        // Chromium drops an extra Cookie header as soon as a page's script writes a cookie of its own.
        await chrome?.kill();
        chrome = await chromeLauncher.launch({
          chromePath: CHROMIUM_PATH,
          // The throwaway certificate of the loopback proxy.
          chromeFlags: ['--headless=new', '--ignore-certificate-errors', ...CHROMIUM_ARGS],
        });
        if (!sharedCpu && setTreePriority(chrome.pid, 0) === 0) {
          console.warn('could not raise the browser over the service (needs root): measuring on shared cores');
        }
        if (!page.public) {
          const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
          await browser.setCookie(...signedInCookies);
          await browser.disconnect();
        }
        // Lighthouse's own artifacts (trace, devtools log) of the run: `lighthouse -A=<dir>` audits them again, same
        // figures. Kept where BENCH_WEB_ARTIFACTS says, else for this run's audit at thread time only.
        const runDir = artifacts ? `${artifacts}/${key}-${i + 1}` : path.join(dataDir, `lh-${key}-${i + 1}`);
        const result = await lighthouse(
          `${base}${page.path}`,
          {
            port: chrome.port,
            output: 'json',
            logLevel: 'error',
            onlyCategories: ['performance'],
            ...(devtoolsThrottling ? { throttlingMethod: 'devtools' as const } : {}),
            gatherMode: runDir,
            auditMode: runDir,
            ...(process.env.BENCH_WEB_BLOCK ? { blockedUrlPatterns: [process.env.BENCH_WEB_BLOCK] } : {}),
          },
          undefined,
        );
        if (!result) throw new Error(`lighthouse gave no result for ${page.path}`);
        const lhr = result.lhr;
        const trace = (result.artifacts as { Trace?: { traceEvents: TraceEvent[] } }).Trace;
        if (process.env.BENCH_WEB_SAVE) {
          fs.mkdirSync(process.env.BENCH_WEB_SAVE, { recursive: true });
          fs.writeFileSync(path.join(process.env.BENCH_WEB_SAVE, `${key}.json`), JSON.stringify(lhr));
          // The trace Lighthouse recorded (open it in DevTools' Performance panel): real time, before simulation.
          if (trace)
            fs.writeFileSync(path.join(process.env.BENCH_WEB_SAVE, `${key}.trace.json`), JSON.stringify(trace));
        }
        // The browser is done with: the audit at thread time takes the cores now, not during a measurement.
        await chrome.kill();
        chrome = undefined;
        const quiet = quietAudit ? await auditAtThreadTime(runDir, page.path) : undefined;
        if (!artifacts) fs.rmSync(runDir, { recursive: true, force: true });
        const audit = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
        const finalPath = new URL(lhr.finalDisplayedUrl).pathname;
        if (finalPath !== page.path) throw new Error(`${page.path} ended at ${finalPath} (not signed in?)`);
        samples.push({
          page: key,
          score: lhr.categories.performance.score ?? 0,
          lcp: audit('largest-contentful-paint'),
          tbt: audit('total-blocking-time'),
          cls: audit('cumulative-layout-shift'),
          // (A simulated run's figure: a throttled trace's tasks are already slowed, which it would count again.)
          cpuTbt: devtoolsThrottling
            ? NaN
            : ((trace && mainThreadFigures(trace.traceEvents, page.path)?.cpuBlockingMs) ?? NaN),
          fcp: audit('first-contentful-paint'),
          si: audit('speed-index'),
          observedFcp: observed(lhr, 'observedFirstContentfulPaint'),
          bytes: audit('total-byte-weight'),
          requests: (lhr.audits['network-requests']?.details as { items?: unknown[] } | undefined)?.items?.length ?? 0,
          quiet,
        });
        if (process.env.BENCH_WEB_VERBOSE) {
          const s = samples[samples.length - 1];
          console.log(
            `  run ${i + 1}: score ${s.score.toFixed(2)}  FCP ${ms(s.fcp)} (observed ${ms(s.observedFcp)})  ` +
              `SI ${ms(s.si)}  TBT ${Math.round(s.tbt)} ms` +
              (s.quiet ? `  at thread time: score ${s.quiet.score.toFixed(2)}, TBT ${Math.round(s.quiet.tbt)} ms` : ''),
          );
        }
      }
      // Each figure is the median of its own runs (not one run's: the run of the median score may have any TBT).
      const mid = (figure: (s: Row) => number) => median(samples.map(figure));
      const pick: Row = {
        ...samples[0],
        ...Object.fromEntries(MEDIAN_FIGURES.map((k) => [k, mid((s) => s[k])])),
      };
      const scores = samples.map((x) => x.score);
      const tbts = samples.map((x) => x.tbt);
      const quietRuns = samples.flatMap((x) => (x.quiet ? [x.quiet] : []));
      const quietScores = quietRuns.map((q) => q.score);
      rows.push({
        ...pick,
        scoreRange: [Math.min(...scores), Math.max(...scores)],
        tbtRange: [Math.min(...tbts), Math.max(...tbts)],
        // The median of the runs audited at thread time (its own median: not necessarily the same run's).
        quiet: quietRuns.find((q) => q.score === median(quietScores)),
        quietRange: quietScores.length ? [Math.min(...quietScores), Math.max(...quietScores)] : undefined,
      });
      console.log(
        `${key.padEnd(14)} score ${pick.score.toFixed(2)}  FCP ${ms(pick.fcp)}  LCP ${ms(pick.lcp)}  SI ${ms(pick.si)}  ` +
          `TBT ${Math.round(pick.tbt)} ms${devtoolsThrottling ? '' : ` (${Math.round(pick.cpuTbt)} by thread time)`}  ` +
          `CLS ${pick.cls.toFixed(3)}  ` +
          `${(pick.bytes / 1024).toFixed(0)} KB in ${pick.requests} requests`,
      );
    }
    console.log(
      `\nLighthouse ${process.env.npm_package_devDependencies_lighthouse ?? ''} mobile, ` +
        `${devtoolsThrottling ? 'devtools' : 'simulated'} throttling, edition ${edition}, ${transport}`,
    );
    // "by thread time": the same tasks' blocking had the page had the cores to itself (scripts/lib/main-thread.ts).
    // "at thread time": Lighthouse's score of the same runs with each task at its thread time (atThreadTime).
    const quietCols = quietAudit ? ' score at thread time | its scores | its TBT |' : '';
    console.log(
      `| page (median of ${runs} runs) | score | scores | FCP | LCP | TBT | TBTs | TBT by thread time | CLS | transferred | requests |` +
        quietCols,
    );
    console.log(`|---|---|---|---|---|---|---|---|---|---|---|${quietAudit ? '---|---|---|' : ''}`);
    for (const r of rows) {
      const quiet = r.quiet
        ? ` ${r.quiet.score.toFixed(2)} | ${range(r.quietRange)} | ${Math.round(r.quiet.tbt)} ms |`
        : quietAudit
          ? ' | | |'
          : '';
      console.log(
        `| ${r.page} | ${r.score.toFixed(2)} | ${range(r.scoreRange)} | ${ms(r.fcp)} | ${ms(r.lcp)} | ${Math.round(r.tbt)} ms | ` +
          `${r.tbtRange ? r.tbtRange.map(Math.round).join('–') : ''} ms | ` +
          `${Number.isNaN(r.cpuTbt) ? '–' : `${Math.round(r.cpuTbt)} ms`} | ${r.cls.toFixed(3)} | ` +
          `${(r.bytes / 1024).toFixed(0)} KB | ${r.requests} |` +
          quiet,
      );
    }
    const floor = Number(process.env.BENCH_WEB_MIN_SCORE ?? 0);
    const below = rows.filter((r) => r.score < floor);
    if (below.length) {
      console.error(`below ${floor}: ${below.map((r) => r.page).join(', ')}`);
      process.exitCode = 1;
    }
  } finally {
    await chrome?.kill();
    proxy?.stop();
    await app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });

const splitCookie = (pair: string) => {
  const at = pair.indexOf('=');
  return [pair.slice(0, at), pair.slice(at + 1)] as const;
};

const ms = (v: number) => `${(v / 1000).toFixed(1)} s`;
const range = (r: [number, number] | undefined) =>
  !r ? '' : r[0] === r[1] ? r[0].toFixed(2) : `${r[0].toFixed(2)}–${r[1].toFixed(2)}`;

/** One of the real (unthrottled) timings Lighthouse's metrics audit reports. */
function observed(lhr: { audits: Record<string, { details?: unknown }> }, key: string): number {
  const items = (lhr.audits.metrics?.details as { items?: Record<string, unknown>[] } | undefined)?.items;
  const v = items?.[0]?.[key];
  return typeof v === 'number' ? v : NaN;
}

/**
 * Audits a run's artifacts again with every task of the page's main thread at its thread time (a copy: the artifacts
 * stay as recorded). Undefined when the trace does not show the page's document.
 */
async function auditAtThreadTime(
  runDir: string,
  pagePath: string,
): Promise<{ score: number; tbt: number } | undefined> {
  const traceFile = fs.readdirSync(runDir).find((f) => f.endsWith('.trace.json'));
  if (!traceFile) return undefined;
  const trace = JSON.parse(fs.readFileSync(path.join(runDir, traceFile), 'utf8')) as
    { traceEvents: TraceEvent[] } | TraceEvent[];
  const events = Array.isArray(trace) ? trace : trace.traceEvents;
  const quiet = atThreadTime(events, pagePath);
  if (!quiet) return undefined;
  const dir = `${runDir}-thread-time`;
  fs.mkdirSync(dir, { recursive: true });
  try {
    for (const f of fs.readdirSync(runDir)) {
      if (f !== traceFile) fs.copyFileSync(path.join(runDir, f), path.join(dir, f));
    }
    fs.writeFileSync(
      path.join(dir, traceFile),
      JSON.stringify(Array.isArray(trace) ? quiet : { ...trace, traceEvents: quiet }),
    );
    const result = await lighthouse(undefined, {
      auditMode: dir,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance'],
    });
    const lhr = result?.lhr;
    if (!lhr) return undefined;
    return {
      score: lhr.categories.performance.score ?? 0,
      tbt: lhr.audits['total-blocking-time']?.numericValue ?? NaN,
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Signs the bench user in and answers its session cookie (`name=value`). */
async function signIn(base: string): Promise<string> {
  const res = await fetch(`${base}/users/ajax/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
    body: JSON.stringify({ username: 'bench', password: PASSWORD }),
  });
  if (res.status !== 200) throw new Error(`bench sign-in failed: ${res.status} ${await res.text()}`);
  return res.headers.getSetCookie()[0].split(';')[0];
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
