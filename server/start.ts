import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app';
import { ConfigError, loadConfig, type AppConfig } from './config';
import { EditionError } from './edition/loader';
import { loadFirstScreenRenderer } from './html/first-screen';
import { seedDemoIfEmpty, type DemoSeed } from './services/seed';

/** What the caller of `start` adds to the service: `npm start` builds a missing edition, `npm run dev` names itself. */
export interface StartOptions {
  /** Builds an edition whose `dist/<id>/index.html` is missing; resolves false when the build failed. */
  buildEdition?: (edition: string) => Promise<boolean>;
  /** Milliseconds a stop waits for open requests before the process exits anyway. */
  stopGraceMs?: number;
}

/** A problem that stops the start, said in one line (no stack: nothing is wrong with the code). */
export class StartError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StartError';
  }
}

/** Milliseconds a stop waits by default for requests already under way (a second signal does not wait). */
export const STOP_GRACE_MS = 10_000;

/** `host:port` as a person types it (IPv6 in brackets). */
function hostPort(host: string, port: number): string {
  return `${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** The one line that says why the service cannot listen, and what to do about it. */
export function listenProblem(host: string, port: number, code: string | undefined): string {
  if (code === 'EADDRINUSE')
    return `port ${port} on ${host} is in use: set PORT=… to a free port, or stop what holds it`;
  if (code === 'EACCES') return `port ${port} on ${host} needs privileges: set PORT=… to a port above 1023`;
  if (code === 'EADDRNOTAVAIL') return `${host} is not an address of this machine: set HOST=… (default 127.0.0.1)`;
  return `cannot listen on ${hostPort(host, port)}: ${code ?? 'unknown error'}`;
}

/**
 * Fails with the one-line problem when `host:port` cannot be listened on now: tried before the first start builds
 * the edition or seeds a database (a busy port used to leave a demo user whose password was never shown).
 */
export async function assertCanListen(host: string, port: number): Promise<void> {
  if (port === 0) return;
  await new Promise<void>((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', (e: NodeJS.ErrnoException) => reject(new StartError(listenProblem(host, port, e.code))));
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve()));
  });
}

/** The address people open: PUBLIC_URL when set (behind a proxy, or the dev server), else where the service listens. */
function shownUrl(config: AppConfig, port: number): string {
  if (config.publicUrl) return config.publicUrl;
  // A loopback or any-address listener is shown as localhost: passkeys need a domain (WebAuthn refuses an IP address),
  // and without PUBLIC_URL the service's relying party is `localhost` (server/auth/second-factor/webauthn.ts).
  const loopback = ['0.0.0.0', '::', '127.0.0.1', '::1'].includes(config.host);
  const host = loopback ? 'localhost' : config.host;
  return `http://${hostPort(host, port)}`;
}

function announce(config: AppConfig, url: string, seed: DemoSeed | null): void {
  const db = config.databaseUrl ? 'PostgreSQL' : `SQLite ${path.join(config.dataDir, 'account.db')}`;
  console.log(`\nAccount service (${config.edition} edition, ${db}) is running at ${url}\n`);
  if (seed) {
    console.log('First start: created a demo organisation and user. The password is shown only this once:');
    console.log(`  organisation: ${seed.org}`);
    console.log(`  username:     ${seed.username}`);
    console.log(`  password:     ${seed.password}\n`);
  }
  console.log(`Sign in at ${url}/users/login${seed ? ' with the account above' : ''}.`);
  console.log('More accounts: npm run admin -- create-user --username NAME --password PASS --org "Demo Organization"');
  console.log(`API reference: ${url}/api/docs\n`);
}

/**
 * Starts the product from the environment: checks the port, builds the edition when missing (if the caller can),
 * migrates, listens, seeds an empty database with the demo account and says how to sign in. SIGINT and SIGTERM stop
 * it: the port is released at once, idle connections are closed, requests under way get `stopGraceMs` to finish.
 */
export async function startService(options: StartOptions = {}): Promise<FastifyInstance> {
  // Signals are handled from the start: one before the service exists, or a second one, ends the process at once.
  const running: { app?: FastifyInstance; stopping?: boolean } = {};
  const stop = (signal: NodeJS.Signals) => {
    if (running.stopping || !running.app) process.exit(signal === 'SIGINT' ? 130 : 143);
    running.stopping = true;
    setTimeout(() => process.exit(0), options.stopGraceMs ?? STOP_GRACE_MS).unref();
    void running.app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, stop);

  const config = loadConfig();
  await assertCanListen(config.host, config.port);
  if (options.buildEdition && !fs.existsSync(path.join(config.distDir, config.edition, 'index.html'))) {
    console.log(`Building the "${config.edition}" edition (first start)…`);
    if (!(await options.buildEdition(config.edition)))
      console.warn('warning: the build failed; the API runs, pages answer 503 until the edition is built.');
  }
  const app = await buildApp({ ...config, logger: { level: process.env.LOG_LEVEL ?? 'warn' } });
  running.app = app;
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (e) {
    await app.close();
    throw new StartError(listenProblem(config.host, config.port, (e as NodeJS.ErrnoException).code));
  }
  const seed = await seedDemoIfEmpty(app.ctx);
  // The first page's renderer loads now, not while that page waits.
  loadFirstScreenRenderer(config.distDir, config.edition);
  const address = app.server.address();
  announce(config, shownUrl(config, typeof address === 'object' && address ? address.port : config.port), seed);
  return app;
}

/** `startService` for a command line: a configuration or start problem is printed alone and exits with 1. */
export async function start(options: StartOptions = {}): Promise<void> {
  try {
    await startService(options);
  } catch (e) {
    if (e instanceof ConfigError || e instanceof EditionError || e instanceof StartError) console.error(e.message);
    else console.error(e);
    process.exit(1);
  }
}

// `tsx server/start.ts` (what `npm run dev` restarts) or `node dist/server/start.js`.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await start();
