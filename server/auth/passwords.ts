import { hash, verify } from '@node-rs/argon2';
import { randomSecret } from './random';
import { passwordRuleBreak } from '../../schemas/password-rule';

/** argon2id cost parameters; production uses the ASVS floor, tests may inject cheaper ones. */
export interface HashParams {
  /** Memory in KiB (ASVS: at least 19456). */
  memoryCost: number;
  /** Passes (ASVS: 2 with 19 MiB). */
  timeCost: number;
  /** Lanes (ASVS: 1). */
  parallelism: number;
}

/** OWASP/ASVS argon2id parameters: m = 19 MiB, t = 2, p = 1. */
export const DEFAULT_HASH_PARAMS: HashParams = { memoryCost: 19456, timeCost: 2, parallelism: 1 };

/** Hashes and checks passwords with one set of parameters, including a dummy check for unknown users. */
export class PasswordHasher {
  private dummy?: Promise<string>;

  constructor(public readonly params: HashParams = DEFAULT_HASH_PARAMS) {}

  /** argon2id PHC string of a password (the default algorithm of @node-rs/argon2 is argon2id). */
  hash(password: string): Promise<string> {
    return hash(password, { ...this.params });
  }

  /** True when the password matches; a malformed stored hash counts as a mismatch. */
  async verify(stored: string, password: string): Promise<boolean> {
    try {
      return await verify(stored, password);
    } catch {
      return false;
    }
  }

  /** Burns the same time as a real check so unknown usernames cannot be told apart by latency. */
  async dummyVerify(password: string): Promise<false> {
    this.dummy ??= this.hash(randomSecret(16));
    await this.verify(await this.dummy, password);
    return false;
  }
}

/** Error code of each part of the rule (the rule itself is shared with the web form). */
const RULE_CODES = {
  tooShort: 'PasswordTooShort',
  characters: 'PasswordCharacters',
  composition: 'PasswordComposition',
} as const;

/** Why a new password breaks the rule, or null when it is acceptable. */
export function passwordRuleViolation(pw: string): (typeof RULE_CODES)[keyof typeof RULE_CODES] | null {
  const broken = passwordRuleBreak(pw);
  return broken ? RULE_CODES[broken] : null;
}
