import type { RequestClient } from '../../src/core/request';
import type { Success } from '../../schemas/common';
import type {
  CredentialHealth,
  Ended,
  FactorAdded,
  HistoryGroup,
  HistoryPage,
  NotMeBody,
  NotMeResult,
  Passkey,
  PasskeyAddBody,
  RecoveryCodes,
  RegistrationOptions,
  RevokeStaleBody,
  RevokeStaleResult,
  SessionList,
  TotpSetup,
  TrustedBrowserList,
  TwoFactorState,
} from './contract';
import { SECURITY_PATHS } from './limits';

/** The slice's paths (plain constants of `./limits`, the same the service registers). */
export const PATHS = SECURITY_PATHS;

/** A path with its `:id` filled in. */
const withId = (path: string, id: string) => path.replace(':id', encodeURIComponent(id));

/**
 * Calls of the security section; a response ≥ 500 shows the central notice, the page explains the rest. The calls
 * that change something need a recent proof: the core client asks for it (403 `ReauthRequired`) and repeats them.
 */
export function securityApi(client: RequestClient) {
  return {
    /** The account's live sessions, newest first, with the timeouts that end them. */
    sessions: () => client.get<SessionList>(PATHS.sessions),
    /** Ends another session of the account (404 `SessionNotFound` once it has ended). */
    endSession: (id: string) => client.delete<Ended>(withId(PATHS.session, id)),
    /** Ends every session of the account but this one. */
    endOthers: () => client.post<Ended>(PATHS.endOthers, {}),
    /** The browsers the smart lockout trusts for the account. */
    trustedBrowsers: () => client.get<TrustedBrowserList>(PATHS.trustedBrowsers),
    /** Forgets a trusted browser: its next sign-in is a stranger's again. */
    forgetBrowser: (id: string) => client.delete<Success>(withId(PATHS.trustedBrowser, id)),
    /** One page of the account's history, newest first; `cursor` is the previous page's `next`. */
    history: (group: HistoryGroup | null, cursor: string | null) =>
      client.get<HistoryPage>(PATHS.history, { group: group ?? undefined, cursor: cursor ?? undefined }),
    /** Where the history's CSV export is downloaded (a plain GET the session cookie authenticates). */
    historyExportUrl: (group: HistoryGroup | null) =>
      client.resolveUrl(PATHS.historyExport, { group: group ?? undefined }),
    /** "This wasn't me": ends the other sessions, revokes the credentials, optionally locks the account. */
    notMe: (body: NotMeBody) => client.post<NotMeResult>(PATHS.notMe, body),
    /** The account's second factors: the app, the passkeys, the recovery codes left, an organisation's deadline. */
    twoFactor: () => client.get<TwoFactorState>(PATHS.twoFactor),
    /**
     * Starts setting up the authenticator app: a new secret (shown once) waiting for its first code; an app set up
     * before keeps working until the new one is confirmed.
     */
    startTotp: () => client.post<TotpSetup>(PATHS.totp, {}),
    /** Confirms the waiting secret with the app's first code; the first factor brings the recovery codes. */
    confirmTotp: (code: string) => client.post<FactorAdded>(PATHS.totpConfirm, { code }),
    /** Removes the authenticator app (the last factor takes the recovery codes with it); answers the new state. */
    removeTotp: () => client.delete<TwoFactorState>(PATHS.totp),
    /** Options for the browser to create a passkey with (a single-use challenge). */
    passkeyOptions: () => client.post<RegistrationOptions>(PATHS.passkeyOptions, {}),
    /** Stores the browser's new passkey under the name its owner gave it. */
    addPasskey: (body: PasskeyAddBody) => client.post<FactorAdded>(PATHS.passkeys, body),
    /** Renames one of the account's passkeys. */
    renamePasskey: (id: string, name: string) => client.patch<Passkey>(withId(PATHS.passkey, id), { name }),
    /** Removes one of the account's passkeys; answers the new state. */
    removePasskey: (id: string) => client.delete<TwoFactorState>(withId(PATHS.passkey, id)),
    /** Ten new recovery codes (shown once); the old ones stop working. */
    newRecoveryCodes: () => client.post<RecoveryCodes>(PATHS.recoveryCodes, {}),
    /** Every token, SSH key, the artifact password and session of the account, with their health marks. */
    credentialHealth: () => client.get<CredentialHealth>(PATHS.credentialHealth),
    /** Revokes those of `items` still stale now (a fresh proof first); answers what went and how many stayed. */
    revokeStale: (body: RevokeStaleBody) => client.post<RevokeStaleResult>(PATHS.revokeStale, body),
  };
}
