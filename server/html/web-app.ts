import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import { pageCsp, API_PREFIXES, loadSession } from '../http/pipeline';
import { sendError } from '../errors';
import { renderIndexHtml } from './render';
import { pageBootstrap } from './bootstrap';
import { FileCache, readJson } from './file-cache';
import { servedPage, settingsHome } from './page-chunks';
import { renderFirstScreen } from './first-screen';
import { isBrowserNavigation } from './navigation';
import type { PageChunks } from '../../schemas/page-chunks';
import type { PageConfig } from '../../schemas/page-config';
import { pagePath } from '../../schemas/page-paths';
import { serverRendererFile } from '../../schemas/server-renderer';

/** Client-side routes answered with index.html (history fallback) when the build has a page there. */
export const APP_ROUTE_PREFIXES = ['/users', '/login', '/sso'];

// A content-hashed file, or its pre-compressed sibling (`.br` / `.gz`, sent by Accept-Encoding).
const HASHED_ASSET = /[.-][0-9a-f]{8,}\.(js|css|mjs|woff2?|png|jpe?g|gif|svg|webp|ico|map)(\.(br|gz))?$/i;

/** Files the build writes pre-compressed (scripts/lib/compress-assets.ts), and those siblings themselves. */
const PRE_COMPRESSED = /\.(js|mjs|css|svg|json)(\.(br|gz))?$/i;

/**
 * Serves the built edition: long-cached hashed assets, index.html with page config and nonce for app routes, and
 * the not-found answer of every path no route has: the app's page with 404 to a browser opening it, else the error
 * shape (API and script calls, files).
 */
export async function registerWebApp(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const root = path.join(ctx.config.distDir, ctx.config.edition);
  // index.html and page-chunks.json as built; a rebuild is picked up without a restart.
  const templates = new FileCache((file) => fs.readFileSync(file, 'utf8'));
  const pageChunkLists = new FileCache(readJson<PageChunks>);
  const pageChunks = () => pageChunkLists.get(path.join(root, 'page-chunks.json'));
  const rendererFile = serverRendererFile(ctx.config.distDir, ctx.config.edition);

  // The edition's own folder (catalogues, brand files) and the scripts and styles every edition shares (`static/`).
  const folders = [
    { dir: root, prefix: '/' },
    { dir: path.join(ctx.config.distDir, 'static'), prefix: '/static/' },
  ].filter((f) => fs.existsSync(f.dir));
  for (const [i, { dir, prefix }] of folders.entries()) {
    await app.register(fastifyStatic, {
      root: dir,
      prefix,
      index: false,
      wildcard: true,
      // One registration decorates the reply (sendFile); the next may not again.
      decorateReply: i === 0,
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

  const serveIndex = async (req: FastifyRequest, reply: FastifyReply, status = 200) => {
    const template = templates.get(path.join(root, 'index.html'));
    if (!template) {
      return reply
        .code(503)
        .type('text/plain; charset=utf-8')
        .send(
          `The "${ctx.config.edition}" edition is not built yet. Run: npx tsx scripts/build.ts --edition ${ctx.config.edition}\n`,
        );
    }
    // A fresh 128-bit nonce for each page.
    const nonce = crypto.randomBytes(16).toString('base64');
    const orgId = req.session?.user.current_org_id ?? '';
    // Without trailing slashes, as every page rule (and each slice's page data) compares it.
    const pathname = pagePath(req.url.split('?')[0]);
    const bootstrap = await pageBootstrap(ctx, req, pathname);
    const page = servedPage(pageChunks(), pathname, bootstrap.locale, !!req.session);
    const config: PageConfig = {
      appId: 'account',
      orgId,
      env: ctx.config.edition,
      host: ctx.config.publicUrl ?? `${req.protocol}://${req.host}`,
      organizationId: orgId,
      ...(req.session ? { csrfToken: req.session.csrfToken } : {}),
      // A signed-out visitor's pages say which directories and third-party providers sign-in offers.
      ...(ctx.signInMethods && !req.session ? { signIn: await ctx.signInMethods(req) } : {}),
      // The first render needs no call: catalogue, user, organisation and apps come with the page.
      bootstrap,
    };
    // A page its plugin declares `firstScreen` comes painted: the app hydrates what the renderer made of this config.
    const screen =
      page.firstScreen && status === 200
        ? await renderFirstScreen(rendererFile, { url: req.url, config }, (err) =>
            req.log.warn({ err }, 'first screen not rendered'),
          )
        : undefined;
    return reply
      .code(status)
      .header('content-security-policy', pageCsp(nonce))
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(renderIndexHtml(template, config, nonce, page.files, screen));
  };

  // The web app's routes: open to anyone (the pipeline reads the session if there is one), not in the API reference.
  const pageRoute = { schema: { hide: true }, config: { auth: 'public' } } as const;
  // `/users/settings` leads to the settings' first page, the first section of the edition's menu that the build has;
  // the query goes along.
  const home = () => settingsHome(pageChunks(), ctx.edition.settingsMenu);
  app.get('/', pageRoute, async (_req, reply) => reply.redirect(home() ?? '/users/settings'));
  const toHome = async (req: FastifyRequest, reply: FastifyReply) => {
    const to = home();
    if (!to) return serveIndex(req, reply);
    const query = req.url.indexOf('?');
    return reply.redirect(query < 0 ? to : to + req.url.slice(query));
  };
  for (const url of ['/users/settings', '/users/settings/']) {
    app.get(url, pageRoute, toHome);
  }
  // An unknown path: a browser opening it gets the app's not-found page (in the frame when signed in) with 404; a
  // script, an API client or a file request gets the error shape.
  const notFound = async (req: FastifyRequest, reply: FastifyReply) => {
    if (!isBrowserNavigation(req.method, req.url, req.headers)) return sendError(req, reply, 404, 'NotFound');
    // No route's `auth` reached this request: the page reads the session itself.
    if (!req.session) await loadSession(req, ctx.sessions, ctx.secureCookies);
    return serveIndex(req, reply, 404);
  };
  app.setNotFoundHandler(notFound);
  // The web app's paths: its page where the build has one (plugins declare their routes in page-chunks.json), else
  // the not-found answer.
  const servePage = async (req: FastifyRequest, reply: FastifyReply) => {
    const { found } = servedPage(pageChunks(), pagePath(req.url.split('?')[0]), '', !!req.session);
    return found ? serveIndex(req, reply) : notFound(req, reply);
  };
  for (const prefix of APP_ROUTE_PREFIXES) {
    app.get(prefix, pageRoute, servePage);
    app.get(`${prefix}/*`, pageRoute, servePage);
  }
  // Unknown API paths answer JSON 404, never the web app.
  for (const prefix of API_PREFIXES) {
    app.route({
      method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
      url: `${prefix}*`,
      schema: pageRoute.schema,
      config: { auth: 'public', csrf: 'xhr' },
      handler: async (req, reply) => sendError(req, reply, 404, 'NotFound'),
    });
  }
}
