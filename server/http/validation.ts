import { Ajv, type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';

const base: Options = { removeAdditional: false, useDefaults: true, allErrors: false, strict: false };

/** How deep `containsNul` looks (JSON bodies nest at most 32 levels; see server/http/json-body.ts). */
const NUL_SCAN_DEPTH = 40;

/** True when a string, key or nested value holds U+0000, which PostgreSQL text refuses and no field needs. */
export function containsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (value === null || typeof value !== 'object' || depth > NUL_SCAN_DEPTH) return false;
  if (Array.isArray(value)) return value.some((v) => containsNul(v, depth + 1));
  return Object.entries(value).some(([k, v]) => k.includes('\u0000') || containsNul(v, depth + 1));
}

const NUL_ERROR: ErrorObject = {
  keyword: 'nul',
  instancePath: '',
  schemaPath: '#',
  params: {},
  message: 'must not contain the NUL character',
};

/** A compiled schema that first refuses NUL characters anywhere in the value, the same on both databases. */
function refusingNul(validate: ValidateFunction): ValidateFunction {
  const wrapped = ((data: unknown) => {
    if (containsNul(data)) {
      wrapped.errors = [NUL_ERROR];
      return false;
    }
    const ok = validate(data);
    wrapped.errors = validate.errors;
    return ok;
  }) as ValidateFunction;
  return wrapped;
}

/**
 * Validation with two Ajv instances: bodies are validated as sent (no type coercion, unknown fields
 * refused), while query strings, params and headers — which are always strings — are coerced. Every part
 * refuses the NUL character (SQLite would store it, PostgreSQL fails on it: one answer, 400, for both).
 */
export function installValidation(app: FastifyInstance): void {
  const strict = new Ajv({ ...base, coerceTypes: false });
  const coercing = new Ajv({ ...base, coerceTypes: 'array' });
  for (const ajv of [strict, coercing]) (addFormats as unknown as (a: Ajv) => void)(ajv);
  app.setValidatorCompiler(({ schema, httpPart }) => {
    const ajv = httpPart === 'body' ? strict : coercing;
    return refusingNul(ajv.compile(schema));
  });
}
