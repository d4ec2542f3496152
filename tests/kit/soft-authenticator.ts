// A software WebAuthn authenticator for tests: a P-256 key per credential (node:crypto), registration answers with
// attestation 'none', assertions signed as an authenticator signs them, and knobs to tamper with every part the
// service must check (challenge, origin, rp id, counter, id ≠ rawId, signature, user presence/verification, another
// account's credential). It answers what @simplewebauthn/browser's startRegistration / startAuthentication would.
import crypto from 'node:crypto';
import type {
  AuthenticationOptions,
  AuthenticationResponse,
  RegistrationOptions,
  RegistrationResponse,
} from '../../schemas/second-factor';

/** Where the authenticator's answers say they come from: the page's origin and the relying-party id. */
export interface SoftRelyingParty {
  /** e.g. `http://localhost:3000`; the service's `relyingParty(config).origin`. */
  origin: string;
  /** e.g. `localhost`; the service's `relyingParty(config).rpID`. */
  rpID: string;
}

/** One credential the authenticator holds. */
export interface SoftCredential {
  /** The credential id, base64url (what the service stores as `credential_id`). */
  id: string;
  privateKey: crypto.KeyObject;
  /** The relying party it was made for. */
  rpID: string;
  /** The user handle the registration gave (base64url), returned by assertions of a discoverable credential. */
  userHandle: string;
  /** Kept on the authenticator: it answers a passkey sign-in without being named. */
  discoverable: boolean;
  /** The signature counter of the last assertion (or registration). */
  counter: number;
}

/** How the authenticator behaves. */
export interface SoftAuthenticatorOptions {
  /** Whether it verifies its user (PIN, biometrics): the UV flag. Default true. */
  userVerified?: boolean;
  /** Whether new credentials are discoverable (resident keys). Default true. */
  discoverable?: boolean;
  /** `zero` = an authenticator without a counter (always 0, allowed by WebAuthn); default `increment`. */
  counter?: 'increment' | 'zero';
  /** The transports it reports. Default `['internal']`. */
  transports?: string[];
}

/** Parts of a registration to change (each one the service must refuse). */
export interface RegistrationTamper {
  challenge?: string;
  origin?: string;
  rpID?: string;
  /** clientData type (`webauthn.get` instead of `webauthn.create`). */
  type?: string;
  userPresent?: boolean;
  userVerified?: boolean;
}

/** Parts of an assertion to change (each one the service must refuse). */
export interface AssertionTamper {
  /** Sign another challenge than the options' (e.g. one issued to another account, or none at all). */
  challenge?: string;
  origin?: string;
  rpID?: string;
  /** The counter the authenticator data carries (a replay: the last one used); the stored one is not moved. */
  counter?: number;
  /** A `rawId` other than `id`. */
  rawId?: string;
  /** Sign other bytes than the ones sent (a well-formed signature that does not verify). */
  badSignature?: boolean;
  /** Use this credential (e.g. another account's) whatever the options allow. */
  credentialId?: string;
  /** The user handle sent; null = none. Default: the credential's when discoverable, none otherwise. */
  userHandle?: string | null;
  userPresent?: boolean;
  userVerified?: boolean;
  /** clientData type (`webauthn.create` instead of `webauthn.get`). */
  type?: string;
}

// --- a minimal CBOR encoder (RFC 8949): what attestation objects and COSE keys need ---

type Cbor = number | string | Uint8Array | Cbor[] | Map<number | string, Cbor>;

function head(major: number, n: number): Buffer {
  if (n < 24) return Buffer.from([(major << 5) | n]);
  if (n < 0x100) return Buffer.from([(major << 5) | 24, n]);
  if (n < 0x10000) {
    const b = Buffer.alloc(3);
    b[0] = (major << 5) | 25;
    b.writeUInt16BE(n, 1);
    return b;
  }
  const b = Buffer.alloc(5);
  b[0] = (major << 5) | 26;
  b.writeUInt32BE(n, 1);
  return b;
}

/** CBOR bytes of a value (integers, text, bytes, arrays, maps in the given key order). */
export function cbor(v: Cbor): Buffer {
  if (typeof v === 'number') return v >= 0 ? head(0, v) : head(1, -1 - v);
  if (typeof v === 'string') {
    const b = Buffer.from(v, 'utf8');
    return Buffer.concat([head(3, b.length), b]);
  }
  if (v instanceof Uint8Array) return Buffer.concat([head(2, v.length), Buffer.from(v)]);
  if (Array.isArray(v)) return Buffer.concat([head(4, v.length), ...v.map(cbor)]);
  return Buffer.concat([head(5, v.size), ...[...v].flatMap(([k, x]) => [cbor(k), cbor(x)])]);
}

const b64url = (b: Uint8Array | string) => Buffer.from(b).toString('base64url');
const sha256 = (b: Uint8Array | string) => crypto.createHash('sha256').update(b).digest();

/** Authenticator data flags (WebAuthn §6.1). */
const UP = 0x01;
const UV = 0x04;
const AT = 0x40;

/** A software authenticator bound to one origin (the page) and, by default, that page's rp id. */
export class SoftAuthenticator {
  /** Every credential it holds, in the order made. */
  readonly credentials: SoftCredential[] = [];
  private readonly opts: Required<SoftAuthenticatorOptions>;

  constructor(
    private readonly rp: SoftRelyingParty,
    options: SoftAuthenticatorOptions = {},
  ) {
    this.opts = {
      userVerified: options.userVerified ?? true,
      discoverable: options.discoverable ?? true,
      counter: options.counter ?? 'increment',
      transports: options.transports ?? ['internal'],
    };
  }

  /** The credential with this id; throws when it holds none. */
  credential(id: string): SoftCredential {
    const c = this.credentials.find((x) => x.id === id);
    if (!c) throw new Error(`the soft authenticator holds no credential ${id}`);
    return c;
  }

  private clientData(type: string, challenge: string, origin: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }), 'utf8');
  }

  private flags(t: { userPresent?: boolean; userVerified?: boolean }, extra = 0): number {
    return ((t.userPresent ?? true) ? UP : 0) | ((t.userVerified ?? this.opts.userVerified) ? UV : 0) | extra;
  }

  /**
   * Makes a new credential for `options` (as `navigator.credentials.create` does) and answers the registration the
   * browser sends. Refuses (throws) when it already holds one of `excludeCredentials`, as authenticators do.
   */
  register(options: RegistrationOptions, tamper: RegistrationTamper = {}): RegistrationResponse {
    const rpID = options.rp.id ?? this.rp.rpID;
    for (const ex of options.excludeCredentials ?? []) {
      if (this.credentials.some((c) => c.id === ex.id && c.rpID === rpID))
        throw new Error('InvalidStateError: the authenticator already holds an excluded credential');
    }
    const { privateKey, publicKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const cose = cbor(
      new Map<number, Cbor>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, Buffer.from(jwk.x!, 'base64url')],
        [-3, Buffer.from(jwk.y!, 'base64url')],
      ]),
    );
    const credId = crypto.randomBytes(16);
    const counter = 0;
    const authData = Buffer.concat([
      sha256(tamper.rpID ?? rpID),
      Buffer.from([this.flags(tamper, AT)]),
      u32(counter),
      Buffer.alloc(16), // aaguid: none
      u16(credId.length),
      credId,
      cose,
    ]);
    const attestationObject = cbor(
      new Map<string, Cbor>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]),
    );
    const clientDataJSON = this.clientData(
      tamper.type ?? 'webauthn.create',
      tamper.challenge ?? options.challenge,
      tamper.origin ?? this.rp.origin,
    );
    const discoverable = this.opts.discoverable && options.authenticatorSelection?.residentKey !== 'discouraged';
    this.credentials.push({
      id: b64url(credId),
      privateKey,
      rpID,
      userHandle: options.user.id,
      discoverable,
      counter,
    });
    return {
      id: b64url(credId),
      rawId: b64url(credId),
      response: {
        clientDataJSON: b64url(clientDataJSON),
        attestationObject: b64url(attestationObject),
        authenticatorData: b64url(authData),
        transports: [...this.opts.transports],
        publicKeyAlgorithm: -7,
        publicKey: b64url(publicKey.export({ format: 'der', type: 'spki' })),
      },
      authenticatorAttachment: 'platform',
      clientExtensionResults: { credProps: { rk: discoverable } },
      type: 'public-key',
    };
  }

  /**
   * Signs an assertion for `options` (as `navigator.credentials.get` does): with a credential the options allow, or,
   * when they allow none (a passkey sign-in), the first discoverable one for the rp id. Throws when it has none.
   */
  assert(options: AuthenticationOptions, tamper: AssertionTamper = {}): AuthenticationResponse {
    const rpID = options.rpId ?? this.rp.rpID;
    const allowed = options.allowCredentials ?? [];
    const cred = tamper.credentialId
      ? this.credential(tamper.credentialId)
      : allowed.length
        ? this.credentials.find((c) => c.rpID === rpID && allowed.some((a) => a.id === c.id))
        : this.credentials.find((c) => c.rpID === rpID && c.discoverable);
    if (!cred) throw new Error('NotAllowedError: the authenticator holds no credential for these options');
    let counter: number;
    if (tamper.counter !== undefined) counter = tamper.counter;
    else {
      if (this.opts.counter === 'increment') cred.counter += 1;
      counter = cred.counter;
    }
    const authData = Buffer.concat([sha256(tamper.rpID ?? rpID), Buffer.from([this.flags(tamper)]), u32(counter)]);
    const clientDataJSON = this.clientData(
      tamper.type ?? 'webauthn.get',
      tamper.challenge ?? options.challenge,
      tamper.origin ?? this.rp.origin,
    );
    const signed = Buffer.concat([
      authData,
      sha256(tamper.badSignature ? Buffer.concat([clientDataJSON, Buffer.from('x')]) : clientDataJSON),
    ]);
    const signature = crypto.sign('sha256', signed, cred.privateKey);
    const userHandle =
      tamper.userHandle === undefined ? (cred.discoverable ? cred.userHandle : undefined) : tamper.userHandle;
    return {
      id: cred.id,
      rawId: tamper.rawId ?? cred.id,
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        ...(userHandle ? { userHandle } : {}),
      },
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
      type: 'public-key',
    };
  }
}

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0, 0);
  return b;
}

function u16(n: number): Buffer {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(n, 0);
  return b;
}
