import path from 'node:path';
import type { FastifyRequest } from 'fastify';
import type { PageDataRequest } from '../plugin';
import type { AppContext } from '../context';
import { AppError } from '../errors';
import { FileCache, readJson } from './file-cache';
import { resolveLocale } from '../i18n/index';
import { enterOrganization } from '../http/tenant';
import { installedApps, toMe } from '../routes/core';
import type { PageBootstrap } from '../../schemas/page-config';

/** The built catalogues (scripts/lib/catalogue.ts: `<dist>/<edition>/catalogue.<locale>.json`), read once per version. */
const catalogues = new FileCache(readJson<NonNullable<PageBootstrap['messages']>>);

/**
 * What the page's first render needs, computed with the same rules as the calls it replaces: the catalogue of the
 * language the web app will pick (locale cookie, else the edition's default — not Accept-Language, which the app
 * ignores), what the mounted slices give for the page (`ServerPlugin.pageData`; the sign-in page's waiting
 * third-party account, say), and with a session the user, the current organisation (admitted by the tenant checks,
 * or the code it refused with) and its installed apps.
 */
export async function pageBootstrap(ctx: AppContext, req: FastifyRequest, pathname: string): Promise<PageBootstrap> {
  const locale = resolveLocale(req.cookies, undefined, ctx.edition.locale.default);
  const boot: PageBootstrap = { locale };
  // None when the build wrote none (a test's stand-in bundle).
  const messages = catalogues.get(path.join(ctx.config.distDir, ctx.config.edition, `catalogue.${locale}.json`));
  if (messages) boot.messages = messages;
  const plugins = pluginPageData(ctx, req, { path: pathname, locale });
  const user = req.session?.user;
  if (user) {
    Object.assign(boot, { me: toMe(user), organization: null, apps: [], organizationError: null });
    if (user.current_org_id) {
      try {
        const org = await enterOrganization(req, user.current_org_id);
        boot.organization = { id: org.id, name: org.name, logo: org.logo };
        if (org.secondFactorDeadline) boot.organization.second_factor_deadline = org.secondFactorDeadline;
        boot.apps = await installedApps(ctx, org.id, locale);
      } catch (e) {
        if (!(e instanceof AppError) || e.status !== 403) throw e;
        boot.apps = null;
        boot.organizationError = e.code;
        if (typeof e.params.org === 'string') boot.refusedOrganizationName = e.params.org;
      }
    }
  }
  const data = await plugins;
  if (user || Object.keys(data).length) boot.plugins = data;
  return boot;
}

/**
 * The mounted slices' data for this page (`ServerPlugin.pageData`), all asked at once. A slice whose data fails is
 * left out and logged, not the page: its web half then makes the call it makes without the data.
 */
async function pluginPageData(
  ctx: AppContext,
  req: FastifyRequest,
  page: PageDataRequest,
): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  await Promise.all(
    ctx.pageData.map(async ({ id, load }) => {
      try {
        const data = await load(req, page);
        if (data !== undefined) out[id] = data;
      } catch (err) {
        req.log.warn({ err, plugin: id }, 'page data left out');
      }
    }),
  );
  return out;
}
