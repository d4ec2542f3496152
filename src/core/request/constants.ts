/** Every call gives up after this long so a hung backend never freezes a screen. */
export const REQUEST_TIMEOUT_MS = 5000;

/** The member lookup has its own budget; a slow lookup only blanks names. */
export const MEMBERS_TIMEOUT_MS = 5000;

/** Responses at or above this status are the server's fault and get the system-exception notice. */
export const SERVER_ERROR_MIN_STATUS = 500;

/** Pseudo-statuses for failures that never produced an HTTP response. */
export const CLIENT_STATUS = {
  /** The network failed (offline, DNS, CORS, connection reset). */
  network: 0,
  /** The caller aborted the call. */
  aborted: -1,
  /** The call exceeded its timeout. */
  timeout: -2,
  /** Anything else on our side, e.g. a success response whose JSON does not parse. */
  other: -3,
} as const;

/** Marker in a URL that routes it to the platform's uiless gateway, which needs app and tenant headers. */
export const UILESS_MARKER = '/uiless/';

/** The service's error code for a user who must change the password before anything else (sent to the sign-in page). */
export const PASSWORD_CHANGE_REQUIRED = 'PasswordChangeRequired';

/**
 * The service's error code of a sensitive call made without a recent proof (schemas/reauth.ts): the client asks for
 * the proof and repeats the call.
 */
export { REAUTH_REQUIRED } from '../../../schemas/reauth-paths';
