import { Ajv, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';

const base: Options = { removeAdditional: false, useDefaults: true, allErrors: false, strict: false };

/**
 * Validation with two Ajv instances: bodies are validated as sent (no type coercion, unknown fields
 * refused), while query strings, params and headers — which are always strings — are coerced.
 */
export function installValidation(app: FastifyInstance): void {
  const strict = new Ajv({ ...base, coerceTypes: false });
  const coercing = new Ajv({ ...base, coerceTypes: 'array' });
  for (const ajv of [strict, coercing]) (addFormats as unknown as (a: Ajv) => void)(ajv);
  app.setValidatorCompiler(({ schema, httpPart }) => {
    const ajv = httpPart === 'body' ? strict : coercing;
    return ajv.compile(schema) as ReturnType<Ajv['compile']>;
  });
}
