import type { Kysely } from 'kysely';
import type { Clock } from '../../clock';
import type { AppConfig } from '../../config';
import { DEFAULT_WEBAUTHN_USER_VERIFICATION } from '../../config';
import type { DB } from '../../db/schema';
import type { FactorMethod, FactorProof } from '../../../schemas/second-factor';
import { deriveFactorKeys, loadFactorKey, type FactorKeys } from './factor-key';
import * as totp from './totp';
import * as recovery from './recovery-codes';
import * as webauthn from './webauthn';
import type { FactorSummary, SecondFactors } from './types';

export type { SecondFactors, FactorSummary, FactorUser, PasskeyInfo, TotpEnrolment } from './types';
export { relyingParty, userHandleOf, type RelyingParty } from './webauthn';
export { totpCode, totpStep } from './totp';
export { normaliseRecoveryCode, formatRecoveryCode } from './recovery-codes';
export { FACTOR_KEY_FILE } from './factor-key';

/** What the second factor is built from: the database, the clock, the configuration and the name apps show. */
export interface SecondFactorDeps {
  db: Kysely<DB>;
  clock: Clock;
  config: Pick<AppConfig, 'dataDir' | 'port' | 'publicUrl' | 'secondFactorKey' | 'webauthnUserVerification'>;
  /** The name authenticator apps and passkeys list this service under (the edition's product name). */
  issuer: string;
}

/** The second factor with its keys: `SecondFactors` plus the housekeeping and the key's public digest. */
export interface SecondFactorService extends SecondFactors {
  /** Removes expired WebAuthn challenges (the core's housekeeping). */
  purgeExpired(): Promise<void>;
  /** A short public digest of the factor key (instances of one database must show the same one). */
  readonly keyCheck: string;
  /**
   * Whether this instance's factor key is the one the database's factors were made with: the first start records the
   * key's digest (`service_secrets`, never the key); false when an instance starts with another key (a key file per
   * instance instead of one SECOND_FACTOR_KEY, a lost key file), whose codes would then never verify.
   */
  checkKey(): Promise<boolean>;
}

/** The `service_secrets` row holding the factor key's public digest. */
const KEY_CHECK_NAME = 'second-factor-key-check';

/**
 * Builds the second factor on the service's database (`ctx.secondFactors`, the admin CLI's deps). Reads the factor
 * key from SECOND_FACTOR_KEY or the key file in DATA_DIR (made on first start): a start fails rather than sealing
 * secrets under a key it could not keep.
 */
export function createSecondFactors(deps: SecondFactorDeps): SecondFactorService {
  const keys: FactorKeys = deriveFactorKeys(loadFactorKey(deps.config));
  const { db, clock } = deps;
  const totpDeps: totp.TotpDeps = { db, clock, seal: keys.seal, issuer: deps.issuer };
  const recoveryDeps: recovery.RecoveryDeps = { db, clock, key: keys.recovery };
  const webauthnDeps: webauthn.WebauthnDeps = {
    db,
    clock,
    rp: webauthn.relyingParty(deps.config),
    rpName: deps.issuer,
    userVerification: deps.config.webauthnUserVerification ?? DEFAULT_WEBAUTHN_USER_VERIFICATION,
  };

  const factorsOf = async (userId: string) => {
    const [app, passkeys] = await Promise.all([
      db
        .selectFrom('totp_factors')
        .select('confirmed_at')
        .where('user_id', '=', userId)
        .where('confirmed_at', 'is not', null)
        .executeTakeFirst(),
      db
        .selectFrom('webauthn_credentials')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow(),
    ]);
    return { totpSince: app?.confirmed_at == null ? null : Number(app.confirmed_at), passkeys: Number(passkeys.n) };
  };
  /** Recovery codes are no factor alone: when the last factor goes, they go too. */
  const dropCodesWithoutFactor = async (userId: string) => {
    const f = await factorsOf(userId);
    if (f.totpSince === null && f.passkeys === 0) await recovery.removeRecoveryCodes(recoveryDeps, userId);
  };
  const hasFactor = async (userId: string) => {
    const f = await factorsOf(userId);
    return f.totpSince !== null || f.passkeys > 0;
  };
  const summary = async (userId: string): Promise<FactorSummary> => {
    const [f, passkeys, left] = await Promise.all([
      factorsOf(userId),
      webauthn.passkeysOf(webauthnDeps, userId),
      recovery.recoveryCodesLeft(recoveryDeps, userId),
    ]);
    return { totpSince: f.totpSince, passkeys, recoveryCodesLeft: left };
  };

  return {
    keyCheck: keys.check,
    async checkKey() {
      await db
        .insertInto('service_secrets')
        .values({ name: KEY_CHECK_NAME, value: keys.check, created_at: clock.now().getTime() })
        .onConflict((oc) => oc.column('name').doNothing())
        .execute();
      const row = await db
        .selectFrom('service_secrets')
        .select('value')
        .where('name', '=', KEY_CHECK_NAME)
        .executeTakeFirst();
      return row?.value === keys.check;
    },
    async methodsOf(userId) {
      const f = await factorsOf(userId);
      const methods: FactorMethod[] = [];
      if (f.totpSince !== null) methods.push('totp');
      if (f.passkeys > 0) methods.push('webauthn');
      if (methods.length) methods.push('recovery');
      return methods;
    },
    hasFactor,
    summary,
    startTotp: (user) => totp.startTotp(totpDeps, user),
    confirmTotp: (userId, code) => totp.confirmTotp(totpDeps, userId, code),
    async removeTotp(userId) {
      const had = await totp.removeTotp(totpDeps, userId);
      if (had) await dropCodesWithoutFactor(userId);
      return had;
    },
    registrationOptions: (user) => webauthn.registrationOptions(webauthnDeps, user),
    register: (userId, response, name) => webauthn.register(webauthnDeps, userId, response, name),
    renamePasskey: (userId, id, name) => webauthn.renamePasskey(webauthnDeps, userId, id, name),
    async removePasskey(userId, id) {
      const gone = await webauthn.removePasskey(webauthnDeps, userId, id);
      if (gone) await dropCodesWithoutFactor(userId);
      return gone;
    },
    assertionOptions: (userId) => webauthn.assertionOptions(webauthnDeps, userId),
    async verify(userId, proof: FactorProof) {
      switch (proof.method) {
        case 'totp':
          return totp.verifyTotp(totpDeps, userId, proof.code);
        case 'recovery':
          // A code of an account without a factor (left over) proves nothing.
          if (!(await hasFactor(userId))) return false;
          return recovery.spendRecoveryCode(recoveryDeps, userId, proof.code);
        case 'webauthn':
          return webauthn.verifyAssertion(webauthnDeps, userId, proof.response);
        default:
          return false;
      }
    },
    verifyPasswordless: (response) => webauthn.verifyPasswordless(webauthnDeps, response),
    newRecoveryCodes: (userId) => recovery.newRecoveryCodes(recoveryDeps, userId),
    async removeAll(userId) {
      const before = await summary(userId);
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('totp_factors').where('user_id', '=', userId).execute();
        await trx.deleteFrom('webauthn_credentials').where('user_id', '=', userId).execute();
        await trx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
        await trx.deleteFrom('webauthn_challenges').where('user_id', '=', userId).execute();
      });
      return before;
    },
    purgeExpired: () => webauthn.purgeChallenges(webauthnDeps),
  };
}
