import crypto from 'node:crypto';
import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { loadEdition } from './edition/loader';
import { systemClock, type Clock } from './clock';
import type { AppConfig } from './config';
import type { AppContext } from './context';
import { migrateToLatest, openDatabase } from './db/index';
import { DEFAULT_HASH_PARAMS, PasswordHasher, type HashParams } from './auth/passwords';
import { SessionStore } from './auth/sessions';
import { LoginLockout } from './auth/lockout';
import { RateLimiter } from './auth/rate-limit';
import { SliderCaptcha } from './services/captcha/slider';
import { createSecondFactors, type SecondFactorService } from './auth/second-factor/index';
import { TOKEN_PREFIX } from './auth/tokens';
import { createMailer, senderAddress } from './mail/index';
import { ErrorBody, installErrorHandling } from './errors';
import { clientErrorHandler, frameworkErrorHandler, installPipeline } from './http/pipeline';
import { installJsonBodyParser } from './http/json-body';
import { installRouteLimits } from './http/route-limits';
import { installValidation } from './http/validation';
import { installCompression } from './http/compression';
import { registerWebApp } from './html/web-app';
import { coreRoutes, MeSchema } from './routes/core';
import { logRoutes } from './routes/logs';
import { purgeUsageLogs } from './services/usage-logs';
import { CredentialUseStore } from './auth/credential-uses';
import { oapiRoutes } from './routes/oapi';
import { identityRoutes } from './routes/identities';
import { captchaRoutes } from './routes/captcha';
import { reauthRoutes } from './routes/reauth';
import { credentialUseRoutes } from './routes/credential-uses';
import { discoverServerPlugins, editionServerPlugins } from './plugin-loader';
import { EventBus, type EventReceiver } from './events';
import { Scheduler, type ScheduledJob } from './services/scheduler';
import { licenceExpiryNotices } from './services/org-notices';

/** Configuration plus the seams tests and benchmarks use (clock, hashing cost, log sink, PG schema). */
export interface BuildAppOptions extends AppConfig {
  /** Time source for every time rule; tests pass a ManualClock. */
  clock?: Clock;
  /** argon2id cost; defaults to the ASVS parameters. */
  hashParams?: HashParams;
  /** Log level and sink; `false` silences logs. Defaults to info on stdout. */
  logger?: false | { level?: string; stream?: { write(line: string): void } };
  /** PostgreSQL schema (tests give each file its own). */
  pgSchema?: string;
  /** Largest accepted request body in bytes. */
  bodyLimit?: number;
  /**
   * Milliseconds a client has to send a whole request (headers within it too); a stalled one is answered 408 and
   * its connection closed within a quarter more. Default 20 s, so a stalled body is closed within 25 s.
   */
  requestTimeoutMs?: number;
  /** `false` = no scheduled passes on their own (tests call `app.runScheduled()` after moving the clock). */
  scheduler?: boolean;
}

/** Default of `requestTimeoutMs`. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 20_000;

const SECRET_QUERY_KEY = /token|password|passwd|secret|code|session|captcha|ticket|key/i;

/** A URL as it may appear in logs: values of secret-looking query parameters (and token-shaped values) masked. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const params = new URLSearchParams(url.slice(q + 1));
  for (const [k, v] of [...params]) {
    if (SECRET_QUERY_KEY.test(k) || v.startsWith(TOKEN_PREFIX)) params.set(k, '[redacted]');
  }
  return `${url.slice(0, q)}?${params.toString()}`;
}

/** Pino redaction paths: credentials never reach a log line even if a handler logs a body or headers. */
export const REDACT_PATHS = [
  'req.headers.cookie',
  'req.headers.authorization',
  'req.headers["x-yunxiao-token"]',
  'req.headers["x-csrf-token"]',
  'req.headers["x-captcha-pass"]',
  'res.headers["set-cookie"]',
  'headers.cookie',
  'headers.authorization',
  'password',
  'new_password',
  'old_password',
  'token',
  'csrf_token',
  'csrfToken',
  'code',
  'sessionId',
  'ticket',
  'flow',
  'captcha_pass',
  '*.ticket',
  '*.flow',
  '*.captcha_pass',
  '*.password',
  '*.new_password',
  '*.old_password',
  '*.token',
  '*.csrf_token',
  '*.csrfToken',
  '*.code',
  '*.sessionId',
];

declare module 'fastify' {
  interface FastifyInstance {
    /** Runs the housekeeping (expired rows, usage logs past their retention) now; never rejects. */
    purge: () => Promise<void>;
    /** Runs one pass of the due-event jobs (expiry messages) now; never rejects. */
    runScheduled: () => Promise<void>;
  }
}

/** Builds the whole service (not listening): database migrated, routes, web app, OpenAPI at /api/docs. */
export async function buildApp(opts: BuildAppOptions): Promise<FastifyInstance> {
  const clock = opts.clock ?? systemClock;
  const edition = loadEdition(opts.edition, { editionsDir: opts.editionsDir });
  // Every slice's migrations run (any edition can use this database); only the edition's slices are mounted.
  const allPlugins = await discoverServerPlugins();
  const plugins = editionServerPlugins(edition, allPlugins);
  const database = await openDatabase({
    dataDir: opts.dataDir,
    databaseUrl: opts.databaseUrl,
    pgSchema: opts.pgSchema,
  });
  let secondFactors: SecondFactorService;
  try {
    await migrateToLatest(database.db, database.dialect === 'postgres' ? opts.pgSchema : undefined, allPlugins);
    // The factor key (SECOND_FACTOR_KEY, else DATA_DIR's key file, made now on a first start).
    secondFactors = createSecondFactors({
      db: database.db,
      clock,
      config: opts,
      issuer: edition.names.product[edition.locale.default],
    });
  } catch (e) {
    await database.close();
    throw e;
  }

  const logger: FastifyServerOptions['logger'] =
    opts.logger === false
      ? false
      : {
          level: opts.logger?.level ?? 'info',
          ...(opts.logger?.stream ? { stream: opts.logger.stream } : {}),
          redact: { paths: REDACT_PATHS, censor: '[redacted]' },
          serializers: {
            req: (req: { method: string; url: string; ip?: string; host?: string }) => ({
              method: req.method,
              url: redactUrl(req.url),
              host: req.host,
              remoteAddress: req.ip,
            }),
          },
        };

  const https = !!opts.publicUrl?.startsWith('https:');
  const requestTimeout = opts.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const app = Fastify({
    logger,
    // Node checks the header and request timeouts every connectionsCheckingInterval: a quarter of the timeout.
    requestTimeout,
    http: {
      headersTimeout: requestTimeout,
      connectionsCheckingInterval: Math.max(100, Math.min(30_000, Math.floor(requestTimeout / 4))),
    },
    // Errors Fastify and Node raise outside any route answer in the error shape with the security headers too.
    frameworkErrors: frameworkErrorHandler(edition.locale.default, https),
    clientErrorHandler: clientErrorHandler(edition.locale.default, https),
    genReqId: () => crypto.randomUUID(),
    logController: new LogController({ requestIdLogLabel: 'requestId' }),
    bodyLimit: opts.bodyLimit ?? 64 * 1024,
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    // A rolling restart: while closing, requests already on an open connection are still served (not 503), idle
    // connections are closed, and new connections are refused — which a reverse proxy retries elsewhere.
    return503OnClosing: false,
    forceCloseConnections: 'idle',
    routerOptions: { maxParamLength: 256 },
    // The client address (req.ip) the IP whitelists check: X-Forwarded-For only from the proxies TRUST_PROXY names.
    trustProxy: opts.trustProxy?.length ? opts.trustProxy : false,
  }).withTypeProvider<TypeBoxTypeProvider>();

  const mailer = createMailer({
    smtpUrl: opts.smtpUrl,
    dataDir: opts.dataDir,
    from: senderAddress(opts.publicUrl),
    log: app.log,
  });
  const ctx: AppContext = {
    config: opts,
    clock,
    db: database.db,
    dialect: database.dialect,
    hasher: new PasswordHasher(opts.hashParams ?? DEFAULT_HASH_PARAMS),
    edition,
    mailer,
    secureCookies: https,
    sessions: new SessionStore(database.db, clock, database.sqlite),
    lockout: new LoginLockout(database.db, clock),
    rateLimits: new RateLimiter(database.db, clock),
    captcha: new SliderCaptcha(database.db, clock),
    secondFactors,
    tokenAuth: null,
    signInMethods: null,
    directoryPasswords: null,
    emailCodes: null,
    trustedBrowsers: null,
    events: new EventBus(
      { db: database.db, clock, mailer },
      plugins.flatMap((p): EventReceiver[] => (p.onEvent ? [p.onEvent] : [])),
      app.log,
    ),
    pageData: [],
    credentialRevokers: [],
    credentialUses: null as unknown as AppContext['credentialUses'],
    credentialSources: [],
  };
  ctx.credentialUses = new CredentialUseStore(database.db, clock, ctx.events, app.log);
  for (const p of plugins) if (p.credentialHealth) ctx.credentialSources.push({ id: p.id, source: p.credentialHealth });
  for (const p of plugins) {
    const revoke = p.revokeCredentials;
    if (revoke) ctx.credentialRevokers.push((userId) => revoke(ctx, userId));
  }
  for (const p of plugins) {
    const pageData = p.pageData;
    if (pageData) ctx.pageData.push({ id: p.id, load: (req, page) => pageData(ctx, req, page.path, page) });
  }
  for (const p of plugins) {
    if (!p.provides?.tokenAuth) continue;
    if (ctx.tokenAuth) throw new Error(`plugin "${p.id}" provides tokenAuth, but another mounted plugin already does`);
    ctx.tokenAuth = p.provides.tokenAuth(ctx);
  }
  for (const p of plugins) if (p.provides?.signInMethods) ctx.signInMethods = p.provides.signInMethods(ctx);
  for (const p of plugins) {
    if (!p.provides?.directoryPasswords) continue;
    if (ctx.directoryPasswords)
      throw new Error(`plugin "${p.id}" provides directoryPasswords, but another mounted plugin already does`);
    ctx.directoryPasswords = p.provides.directoryPasswords(ctx);
  }
  for (const p of plugins) {
    if (!p.provides?.emailCodes) continue;
    if (ctx.emailCodes)
      throw new Error(`plugin "${p.id}" provides emailCodes, but another mounted plugin already does`);
    ctx.emailCodes = p.provides.emailCodes(ctx);
  }
  for (const p of plugins) {
    if (!p.provides?.trustedBrowsers) continue;
    if (ctx.trustedBrowsers)
      throw new Error(`plugin "${p.id}" provides trustedBrowsers, but another mounted plugin already does`);
    ctx.trustedBrowsers = p.provides.trustedBrowsers(ctx);
  }
  app.decorate('ctx', ctx);
  // Expired sessions, puzzles, passes and limit windows are refused on use; this only keeps the tables small.
  // Usage logs older than their retention go too.
  const purge = () =>
    Promise.all([
      ctx.sessions.purgeExpired(),
      ctx.captcha.purgeExpired(),
      ctx.rateLimits.purgeExpired(),
      ctx.secondFactors.purgeExpired(),
      purgeUsageLogs(ctx),
      ctx.credentialUses.purge(),
      ...plugins.map((p) => p.housekeeping?.(ctx)),
    ]).then(
      () => undefined,
      (err: unknown) => app.log.warn({ err }, 'purge failed'),
    );
  app.decorate('purge', purge);
  const purgeTimer = setInterval(() => void purge(), 10 * 60 * 1000).unref();
  app.addHook('onReady', async () => void purge());
  app.addHook('onReady', async () => {
    // Another factor key than the one this database's factors were sealed with: say so loudly (codes would fail).
    if (!(await ctx.secondFactors.checkKey()))
      app.log.error(
        "SECOND_FACTOR_KEY (or DATA_DIR/second-factor.key) differs from the key this database's second factors were made with: authenticator codes and recovery codes will not verify. Give every instance the same SECOND_FACTOR_KEY.",
      );
  });
  // Due events (expiries) are looked for at start, which catches up after downtime, and every few minutes.
  const scheduler = new Scheduler(
    ctx,
    [
      { name: 'licence-expiry', run: licenceExpiryNotices },
      ...plugins.flatMap((p): ScheduledJob[] => (p.scheduled ? [{ name: p.id, run: p.scheduled }] : [])),
    ],
    app.log,
  );
  app.decorate('runScheduled', () => scheduler.runNow());
  app.addHook('onReady', async () => {
    if (opts.scheduler === false) return;
    void scheduler.runNow();
    scheduler.start();
  });
  app.addHook('onClose', async () => {
    clearInterval(purgeTimer);
    await scheduler.stop();
    ctx.mailer.close();
    await database.close();
  });

  installErrorHandling(app);
  installJsonBodyParser(app);
  installValidation(app);
  await installCompression(app);
  await app.register(fastifyCookie);
  await app.register(fastifyFormbody);
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Account service',
        version: '1',
        description: 'Account and personal settings API. Errors: { status, requestId, code, message }.',
      },
      components: {
        securitySchemes: {
          yunxiaoToken: { type: 'apiKey', in: 'header', name: 'x-yunxiao-token' },
          bearer: { type: 'http', scheme: 'bearer' },
        },
      },
    },
    // The internal API (the git gate's and the artifact proxy's calls) is no part of the public document.
    transform: ({ schema, url }) => ({ schema: { ...schema, hide: schema?.hide || url.startsWith('/internal/') }, url }),
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
  });
  app.addSchema(ErrorBody);
  app.addSchema(MeSchema);
  installPipeline(app, ctx, ctx.sessions);
  installRouteLimits(app, ctx);

  await app.register(coreRoutes);
  await app.register(oapiRoutes);
  await app.register(logRoutes);
  await app.register(identityRoutes);
  await app.register(captchaRoutes);
  await app.register(reauthRoutes);
  await app.register(credentialUseRoutes);
  for (const p of plugins) if (p.routes) await app.register(p.routes);
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });
  await registerWebApp(app, ctx);
  return app;
}
