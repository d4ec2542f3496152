import QRCode from 'qrcode';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../../server/errors';
import {
  FactorAddedSchema,
  PasskeyAddBodySchema,
  PasskeyRenameBodySchema,
  PasskeySchema,
  RECOVERY_CODE_COUNT,
  RecoveryCodesSchema,
  RegistrationOptionsSchema,
  SECURITY_PATHS,
  SecurityIdParamsSchema,
  TotpConfirmBodySchema,
  TotpSetupSchema,
  TwoFactorStateSchema,
  WEBAUTHN_CREDENTIALS_MAX,
} from '../contract';
import { routePath } from './route-path';
import {
  addPasskey,
  confirmTotp,
  passkeyOptions,
  regenerateRecoveryCodes,
  removePasskey,
  removeTotp,
  renamePasskey,
  startTotp,
  twoFactorState,
} from './two-factor-service';

const tags = ['security'];

/** Set-ups and passkey options one account may ask for per minute: each stores a secret or a challenge. */
export const TWO_FACTOR_STARTS_PER_MINUTE = 20;

/**
 * The account's second factors on the security page (SECURITY_PATHS in ../contract): the state, and every change
 * behind a recent proof (403 ReauthRequired without one). Secrets are answered once — the app's secret when set up,
 * recovery codes when made — and never logged (the request log carries no bodies).
 */
export const twoFactorRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;
  const starts = { name: 'two-factor-start', perUser: TWO_FACTOR_STARTS_PER_MINUTE };

  app.get(
    SECURITY_PATHS.twoFactor,
    {
      config: { auth: 'session' },
      schema: {
        tags,
        summary:
          'My second factors: the authenticator app (since when), my passkeys, how many recovery codes are left, ' +
          'and the nearest deadline an organisation of mine set for having one. Never a secret',
        response: { 200: TwoFactorStateSchema, ...errorResponses },
      },
    },
    async (req) => twoFactorState(ctx, req.session!.user.id),
  );

  app.post(
    SECURITY_PATHS.totp,
    {
      config: { auth: 'session', reauth: true, limit: starts },
      schema: {
        tags,
        summary:
          'Start setting up an authenticator app: a new secret, its otpauth:// URI and that URI as a QR code (SVG), ' +
          'shown this once. It works after `totp:confirm`; an app set up before keeps working until then',
        response: { 200: TotpSetupSchema, ...errorResponses },
      },
    },
    async (req) => {
      const { secret, uri } = await startTotp(ctx, req.session!.user);
      const qr = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
      return { secret, uri, qr_svg: qr };
    },
  );

  app.post(
    routePath(SECURITY_PATHS.totpConfirm),
    {
      config: { auth: 'session', reauth: true },
      schema: {
        tags,
        summary:
          'Confirm the new secret with the app’s current code: 400 TotpCodeInvalid when wrong, 409 TotpNotStarted ' +
          `when no set-up waits. My first factor brings ${RECOVERY_CODE_COUNT} recovery codes, answered this once`,
        body: TotpConfirmBodySchema,
        response: { 200: FactorAddedSchema, ...errorResponses },
      },
    },
    async (req) => confirmTotp(ctx, req.session!.user.id, req.body.code),
  );

  app.delete(
    SECURITY_PATHS.totp,
    {
      config: { auth: 'session', reauth: true },
      schema: {
        tags,
        summary:
          'Remove my authenticator app (404 TotpNotFound without one). My last factor takes my recovery codes with ' +
          'it, and is refused (409 SecondFactorRequiredByOrganization) while an organisation of mine requires one',
        response: { 200: TwoFactorStateSchema, ...errorResponses },
      },
    },
    async (req) => removeTotp(ctx, req.session!.user.id),
  );

  app.post(
    routePath(SECURITY_PATHS.passkeyOptions),
    {
      config: { auth: 'session', reauth: true, limit: starts },
      schema: {
        tags,
        summary:
          'Options for navigator.credentials.create (a single-use challenge; my passkeys excluded). 409 PasskeyLimit ' +
          `at ${WEBAUTHN_CREDENTIALS_MAX} passkeys`,
        response: { 200: RegistrationOptionsSchema, ...errorResponses },
      },
    },
    async (req) => passkeyOptions(ctx, req.session!.user),
  );

  app.post(
    SECURITY_PATHS.passkeys,
    {
      config: { auth: 'session', reauth: true },
      schema: {
        tags,
        summary:
          'Add the passkey the browser made with those options, under the name I gave it: 400 PasskeyNotVerified ' +
          'when it does not verify (challenge, origin, relying party), 409 PasskeyLimit beyond the limit. My first ' +
          `factor brings ${RECOVERY_CODE_COUNT} recovery codes, answered this once`,
        body: PasskeyAddBodySchema,
        response: { 200: FactorAddedSchema, ...errorResponses },
      },
    },
    async (req) => addPasskey(ctx, req.session!.user.id, req.body),
  );

  app.patch(
    SECURITY_PATHS.passkey,
    {
      config: { auth: 'session', reauth: true },
      schema: {
        tags,
        summary: 'Rename one of my passkeys; anyone else’s answers 404 PasskeyNotFound as an unknown one',
        params: SecurityIdParamsSchema,
        body: PasskeyRenameBodySchema,
        response: { 200: PasskeySchema, ...errorResponses },
      },
    },
    async (req) => renamePasskey(ctx, req.session!.user.id, req.params.id, req.body.name),
  );

  app.delete(
    SECURITY_PATHS.passkey,
    {
      config: { auth: 'session', reauth: true },
      schema: {
        tags,
        summary:
          'Remove one of my passkeys; anyone else’s answers 404 PasskeyNotFound as an unknown one. The last factor ' +
          'as for the app',
        params: SecurityIdParamsSchema,
        response: { 200: TwoFactorStateSchema, ...errorResponses },
      },
    },
    async (req) => removePasskey(ctx, req.session!.user.id, req.params.id),
  );

  app.post(
    SECURITY_PATHS.recoveryCodes,
    {
      config: { auth: 'session', reauth: true },
      schema: {
        tags,
        summary:
          `Make ${RECOVERY_CODE_COUNT} new recovery codes, answered this once; the old ones stop working. Only with ` +
          'a second factor (409 RecoveryCodesNoFactor)',
        response: { 200: RecoveryCodesSchema, ...errorResponses },
      },
    },
    async (req) => regenerateRecoveryCodes(ctx, req.session!.user.id),
  );
};
