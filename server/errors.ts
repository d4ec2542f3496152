import { Type, type Static } from '@sinclair/typebox';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isMessageCode, translate, type MessageCode, type MessageParams, type ServerLocale } from './i18n/index';

/** A failure a client should see as-is: status, catalogue code and message parameters. */
export class AppError extends Error {
  constructor(
    public readonly status: number,
    public readonly code: MessageCode,
    public readonly params: MessageParams = {},
    /** Headers the answer carries (e.g. `retry-after` on a 429). */
    public readonly headers: Record<string, string> = {},
  ) {
    super(code);
    this.name = 'AppError';
  }
}

/** The one error body every failure has, so the web client's error display needs one code path. */
export const ErrorBody = Type.Object(
  {
    status: Type.Integer(),
    requestId: Type.String(),
    code: Type.String(),
    message: Type.String(),
  },
  { $id: 'ErrorBody', description: 'Every error answer: HTTP status, request id, catalogue code, localised message' },
);

/** Static type of the error body. */
export type ErrorBodyType = Static<typeof ErrorBody>;

/** Response schemas to spread into a route's `response` so OpenAPI documents the error shape. */
export const errorResponses = {
  '4xx': Type.Ref('ErrorBody'),
  '5xx': Type.Ref('ErrorBody'),
} as const;

/** Builds the error body in the request's locale. */
export function errorBody(
  req: FastifyRequest,
  status: number,
  code: MessageCode,
  params?: MessageParams,
): ErrorBodyType {
  return localizedErrorBody(req.locale, String(req.id), status, code, params);
}

/** Builds the error body where there is no Fastify request (a connection-level error): locale and id given. */
export function localizedErrorBody(
  locale: ServerLocale,
  requestId: string,
  status: number,
  code: MessageCode,
  params?: MessageParams,
): ErrorBodyType {
  return { status, requestId, code, message: translate(locale, code, params) };
}

/** Characters Node refuses in a header value (it throws "Invalid character in header content"). */
const INVALID_HEADER_VALUE = /[^\t\x20-\x7e\x80-\xff]/;

/** True when Node would refuse to send this header value. */
export function isUnsafeHeaderValue(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(isUnsafeHeaderValue);
  return typeof value === 'string' && INVALID_HEADER_VALUE.test(value);
}

/**
 * Drops what an error answer must not carry: a redirect's `location`, and any header value Node would refuse
 * (the reason the first answer failed, when writing its headers threw), so the error itself can be sent.
 */
function clearUnsendableHeaders(reply: FastifyReply): void {
  reply.removeHeader('location');
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (isUnsafeHeaderValue(value)) reply.removeHeader(name);
  }
}

/** Sends an error in the shared shape. */
export function sendError(
  req: FastifyRequest,
  reply: FastifyReply,
  status: number,
  code: MessageCode,
  params?: MessageParams,
): FastifyReply {
  return reply
    .code(status)
    .type('application/json; charset=utf-8')
    .send(errorBody(req, status, code, params));
}

const byStatus: Record<number, MessageCode> = {
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  408: 'RequestTimeout',
  413: 'PayloadTooLarge',
  414: 'UriTooLong',
  415: 'UnsupportedMediaType',
  429: 'TooManyRequests',
  431: 'HeadersTooLarge',
};

/** Maps any thrown error (ours, Fastify's parser/validation errors, bugs) to the shared shape; never leaks internals. */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | AppError, req, reply) => {
    clearUnsendableHeaders(reply);
    if (err instanceof AppError) {
      for (const [name, value] of Object.entries(err.headers)) reply.header(name, value);
      return sendError(req, reply, err.status, err.code, err.params);
    }
    const e = err as FastifyError;
    if (e.validation) {
      const detail = `${e.validationContext ?? 'request'}${e.message.replace(/^(body|querystring|params|headers)/, '')}`;
      return sendError(req, reply, 400, 'InvalidParameter', { detail });
    }
    const status = typeof e.statusCode === 'number' ? e.statusCode : 500;
    if (status >= 400 && status < 500) {
      if (
        e.code === 'FST_ERR_CTP_INVALID_JSON_BODY' ||
        e.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ||
        e instanceof SyntaxError
      ) {
        return sendError(req, reply, 400, 'InvalidJson');
      }
      const code = byStatus[status];
      if (code) return sendError(req, reply, status, code);
      if (e.code && isMessageCode(e.code)) return sendError(req, reply, status, e.code);
      return sendError(req, reply, status, 'InvalidParameter', { detail: e.code ?? 'request' });
    }
    req.log.error({ err: e }, 'unhandled error');
    return sendError(req, reply, 500, 'SystemError');
  });
  // The not-found handler (the error shape, or the app's page to a browser) is the web app's: server/html/web-app.ts.
}
