import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import { pageCsp, API_PREFIXES } from '../http/pipeline';
import { sendError } from '../errors';
import { newNonce, renderIndexHtml, type PageConfig } from './render';
import { CatalogueCache, pageBootstrap } from './bootstrap';
import { FileCache } from './file-cache';
import { pageChunkFiles } from './page-chunks';
import {
  FirstScreenRenderer,
  firstScreenHasShell,
  firstScreenShowsTimes,
  looksNarrow,
  rendersFirstScreen,
  splitFirstScreen,
} from './first-screen';
import { TIME_ZONE_COOKIE, knownTimeZone } from '../../schemas/time-zone';
import type { PageChunks } from '../../schemas/page-chunks';
import { SETTINGS_HOME, SETTINGS_HOME_PLUGIN, pagePath } from '../../schemas/page-paths';

/** Client-side routes answered with index.html (history fallback). */
export const APP_ROUTE_PREFIXES = ['/users', '/login', '/sso'];

/** The pages that offer sign-in methods: the login page (both re-login paths) and the third-party failure pages. */
const LOGIN_PAGES = ['/users/login', '/sso/login', '/login/errors'];
function isLoginPage(url: string): boolean {
  return LOGIN_PAGES.includes(pagePath(url.split('?')[0]));
}

// A content-hashed file, or its pre-compressed sibling (`.br` / `.gz`, sent by Accept-Encoding).
const HASHED_ASSET = /[.-][0-9a-f]{8,}\.(js|css|mjs|woff2?|png|jpe?g|gif|svg|webp|ico|map)(\.(br|gz))?$/i;

/** Files the build writes pre-compressed (scripts/lib/compress-assets.ts), and those siblings themselves. */
const PRE_COMPRESSED = /\.(js|mjs|css|svg|json)(\.(br|gz))?$/i;

/** Serves the built edition: long-cached hashed assets, index.html with page config and nonce for app routes. */
export async function registerWebApp(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const root = path.join(ctx.config.distDir, ctx.config.edition);
  const indexFile = path.join(root, 'index.html');
  const catalogues = new CatalogueCache(root);
  // index.html and page-chunks.json as built; a rebuild is picked up without a restart.
  const templates = new FileCache((html) => html);
  const pageChunkLists = new FileCache((text) => JSON.parse(text) as PageChunks);
  const pageChunksFile = path.join(root, 'page-chunks.json');
  const firstScreens = new FirstScreenRenderer(ctx.config.distDir, ctx.config.edition);

  if (fs.existsSync(root)) {
    await app.register(fastifyStatic, {
      root,
      prefix: '/',
      index: false,
      wildcard: true,
      // The build writes .br and .gz beside scripts, styles and SVGs; they go out by Accept-Encoding (Vary set).
      preCompressed: true,
      cacheControl: false,
      allowedPath: (p) => !/(^|\/)index\.html$/i.test(p),
      setHeaders(res, file) {
        res.setHeader('cache-control', HASHED_ASSET.test(file) ? 'public, max-age=31536000, immutable' : 'no-cache');
        // Every variant of a compressible file says the answer depends on Accept-Encoding (caches keep them apart).
        if (PRE_COMPRESSED.test(file)) res.setHeader('vary', 'Accept-Encoding');
      },
    });
  }

  const serveIndex = async (req: FastifyRequest, reply: FastifyReply) => {
    const template = templates.get(indexFile);
    if (!template) {
      return reply
        .code(503)
        .type('text/plain; charset=utf-8')
        .send(
          `The "${ctx.config.edition}" edition is not built yet. Run: npx tsx scripts/build.ts --edition ${ctx.config.edition}\n`,
        );
    }
    const nonce = newNonce();
    const orgId = req.session?.user.current_org_id ?? '';
    // Without trailing slashes, as every page rule (and each slice's page data) compares it.
    const pathname = pagePath(req.url.split('?')[0]);
    const bootstrap = await pageBootstrap(ctx, req, catalogues, pathname);
    const chunkLists = pageChunkLists.get(pageChunksFile);
    const chunks = chunkLists ? pageChunkFiles(chunkLists, pathname, bootstrap.locale, !!req.session) : [];
    const config: PageConfig = {
      appId: 'account',
      orgId,
      env: ctx.config.edition,
      host: ctx.config.publicUrl ?? `${req.protocol}://${req.host}`,
      organizationId: orgId,
      ...(req.session ? { csrfToken: req.session.csrfToken } : {}),
      // The login pages say which directories and third-party providers they offer.
      ...(ctx.signInMethods && isLoginPage(req.url) ? { signIn: await ctx.signInMethods(req) } : {}),
      // The first render needs no call: catalogue, user, organisation and apps come with the page.
      bootstrap,
    };
    // Some pages come painted: the app hydrates what the build's renderer made of this same configuration (with the
    // guess of a narrow window the shell is laid out for).
    let screen: string | undefined;
    const timeZone = knownTimeZone(req.cookies[TIME_ZONE_COOKIE]);
    if (rendersFirstScreen(pathname, { signedIn: !!req.session, timeZone })) {
      // The shell is laid out for the window's width; the sign-in pages have none.
      if (firstScreenHasShell(pathname)) config.narrow = looksNarrow(req.headers);
      if (timeZone && firstScreenShowsTimes(pathname)) {
        config.timeZone = timeZone;
        config.paintedAt = ctx.clock.now().getTime();
      }
      screen = await firstScreens.render(req.url, { ...config, nonce }, (err) =>
        req.log.warn({ err }, 'first screen not rendered'),
      );
      if (screen === undefined) {
        delete config.narrow;
        delete config.timeZone;
        delete config.paintedAt;
      }
    }
    return reply
      .header('content-security-policy', pageCsp(nonce))
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(
        renderIndexHtml(template, config, nonce, chunks, screen === undefined ? undefined : splitFirstScreen(screen)),
      );
  };

  const htmlSchema = { hide: true } as const;
  // `/users/settings` leads to the settings' first page. The web app would go there itself (its route), but only once
  // its scripts ran: answered here, the page comes painted (a first screen) instead of blank until then. An edition
  // without that page keeps the web app's choice. The query goes along.
  const home = ctx.edition.plugins.includes(SETTINGS_HOME_PLUGIN) ? SETTINGS_HOME : undefined;
  app.get('/', { schema: htmlSchema, config: { auth: 'public' } }, async (_req, reply) =>
    reply.redirect(home ?? '/users/settings'),
  );
  if (home) {
    const toHome = async (req: FastifyRequest, reply: FastifyReply) => {
      const query = req.url.indexOf('?');
      return reply.redirect(query < 0 ? home : home + req.url.slice(query));
    };
    for (const url of ['/users/settings', '/users/settings/']) {
      app.get(url, { schema: htmlSchema, config: { auth: 'public' } }, toHome);
    }
  }
  for (const prefix of APP_ROUTE_PREFIXES) {
    app.get(prefix, { schema: htmlSchema, config: { auth: 'public' } }, serveIndex);
    app.get(`${prefix}/*`, { schema: htmlSchema, config: { auth: 'public' } }, serveIndex);
  }
  // Unknown API paths answer JSON 404, never the web app.
  for (const prefix of API_PREFIXES) {
    app.route({
      method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
      url: `${prefix}*`,
      schema: htmlSchema,
      config: { auth: 'public', csrf: 'xhr' },
      handler: async (req, reply) => sendError(req, reply, 404, 'NotFound'),
    });
  }
}
