// `npm run dev`: one URL for the web app with hot reload and the service restarting on change of its code.
//
// rsbuild's dev server listens on the public port (PORT, default 3000) and builds one edition's browser bundle
// (EDITION, default vpc) into dist/.dev/ (the edition's folder dist/.dev/<edition>/, shared files in static/), on disk, so the service finds the page template and the build's
// lists there. It answers its own files (scripts, styles, images, hot updates, its websocket) and hands every other
// request to the service, which runs from its sources under `tsx watch` on a free loopback port: pages come from it
// (page configuration, CSRF token and nonce), as in production; the first screen is not rendered on the service
// (no renderer bundle in dev).
import net from 'node:net';
import path from 'node:path';
import { createRequire } from 'node:module';
import { spawn, type ChildProcess } from 'node:child_process';
import type { IncomingMessage } from 'node:http';
import { createRsbuild, loadConfig, mergeRsbuildConfig, type RsbuildConfig } from '@rsbuild/core';
import { ConfigError, loadConfig as loadServiceConfig } from '../server/config';
import { assertCanListen, StartError } from '../server/start';
import { servedByDevServer } from './lib/dev-routing';

const root = path.resolve(import.meta.dirname, '..');

/** Where the dev build goes: beside the production editions, never over them (npm start serves those). */
export const DEV_DIST_DIR = path.join(root, 'dist', '.dev');

/** A loopback port nothing listens on now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen({ host: '127.0.0.1', port: 0 }, () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** Resolves once something accepts connections on the port (the service finished starting). */
function whenListening(port: number, child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    const attempt = () => {
      if (child.exitCode !== null) return reject(new Error(`the service exited (${child.exitCode})`));
      const socket = net.connect({ host: '127.0.0.1', port });
      socket.once('connect', () => {
        socket.destroy();
        resolve();
      });
      socket.once('error', () => setTimeout(attempt, 100));
    };
    attempt();
  });
}

async function main(): Promise<void> {
  const env = process.env;
  let config;
  try {
    // The service's own reading of EDITION, PORT and HOST (an unknown edition falls back to vpc, with a warning).
    config = loadServiceConfig({ ...env, DIST_DIR: DEV_DIST_DIR });
    await assertCanListen(config.host, config.port);
  } catch (e) {
    if (e instanceof ConfigError || e instanceof StartError) {
      console.error(e.message);
      process.exit(1);
    }
    throw e;
  }
  const { edition, host, port } = config;
  // Loopback is shown (and made PUBLIC_URL) as localhost: passkeys need a domain, WebAuthn refuses an IP address.
  const loopback = ['0.0.0.0', '::', '127.0.0.1', '::1'].includes(host);
  const shownHost = loopback ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  const publicUrl = `http://${shownHost}:${port}`;
  const servicePort = await freePort();
  console.log(
    `Dev: ${publicUrl} — the ${edition} edition; the web app reloads in place, the service restarts when its code changes.`,
  );

  // The service: from its sources, restarted by tsx when one of the files it imported changes.
  const tsx = createRequire(import.meta.url).resolve('tsx/cli');
  const service = spawn(process.execPath, [tsx, 'watch', '--clear-screen=false', path.join(root, 'server/start.ts')], {
    cwd: root,
    stdio: 'inherit',
    env: {
      ...env,
      EDITION: edition,
      HOST: '127.0.0.1',
      PORT: String(servicePort),
      PUBLIC_URL: env.PUBLIC_URL ?? publicUrl,
      DIST_DIR: DEV_DIST_DIR,
    },
  });
  const serviceUp = whenListening(servicePort, service);
  serviceUp.catch(() => undefined);

  let firstCompile!: () => void;
  const compiled = new Promise<void>((resolve) => (firstCompile = resolve));

  // Only the browser's environment, with the edition's entry alone (the service's renderer is left out).
  process.env.EDITIONS = edition;
  process.env.DIST_DIR = DEV_DIST_DIR;
  const { content } = await loadConfig({ cwd: root });
  const devConfig: RsbuildConfig = {
    dev: {
      hmr: true,
      // The service reads the page template and the build's lists from disk; hot updates stay in memory.
      writeToDisk: (file) => !file.includes('.hot-update.'),
      // Every page's scripts are built up front: the service names a page's files from the build's lists.
      lazyCompilation: false,
    },
    server: {
      host,
      port,
      strictPort: true,
      printUrls: false,
      proxy: [
        {
          target: `http://127.0.0.1:${servicePort}`,
          // The service sees the browser's Host (its pages, cookies and origin checks are for the public URL).
          changeOrigin: false,
          pathFilter: () => true,
          // Requests wait for the first build and the service; then rsbuild keeps its own files.
          bypass: async (req: IncomingMessage) => {
            await Promise.all([compiled, serviceUp]);
            return servedByDevServer(req.url ?? '/', DEV_DIST_DIR) ? true : null;
          },
        },
      ],
    },
  };
  const rsbuild = await createRsbuild({
    cwd: root,
    rsbuildConfig: mergeRsbuildConfig(content, devConfig),
    environment: ['web'],
    loadEnv: false,
  });
  rsbuild.onAfterDevCompile(({ isFirstCompile }) => {
    if (isFirstCompile) firstCompile();
  });

  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    service.kill('SIGTERM');
    await server?.server.close().catch(() => undefined);
    process.exit(code);
  };
  service.on('exit', (code) => {
    if (!stopping) {
      console.error(`The service stopped (exit ${code}); stopping the dev server.`);
      void stop(1);
    }
  });
  for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => void stop(0));
  // rsbuild ends the process on its own too (SIGTERM, or its input closing): the service goes with it.
  process.on('exit', () => service.kill('SIGTERM'));

  let server: Awaited<ReturnType<typeof rsbuild.startDevServer>> | undefined;
  try {
    server = await rsbuild.startDevServer();
  } catch (e) {
    console.error(`The dev server did not start: ${(e as Error).message}`);
    await stop(1);
    return;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
