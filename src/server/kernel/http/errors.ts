import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { pickLocale, t, type Locale, type MessageKey } from '../../../shared/i18n/messages.js';
import { ApiError, InvalidRecord, sendError } from './envelope.js';

/**
 * Every refusal in the spec's envelope (resultCode / resultMessage / resultObject), the framework's
 * own included: an unreadable body, a body too large, a path that cannot be decoded or is too long.
 * Their messages come from the catalogue, in the caller's language, never the framework's English.
 */
const FRAMEWORK: Record<string, MessageKey> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'input.badJson',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'input.badJson',
  FST_ERR_CTP_BODY_TOO_LARGE: 'input.tooLarge',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'input.badMediaType',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'input.badRequest',
  FST_ERR_BAD_URL: 'input.badUrl',
  FST_ERR_MAX_PARAM_LENGTH: 'input.urlTooLong',
};

/** The locale of a request that may have failed before the app's own onRequest hook set it. */
const localeOf = (request: FastifyRequest): Locale =>
  (request.locale as Locale | undefined) ?? pickLocale(request.headers['accept-language']);

export function errorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const locale = localeOf(request);
  if (error instanceof ApiError) return sendError(reply, error.status, t(error.key, locale, error.vars));
  if (error instanceof InvalidRecord)
    return sendError(reply, 400, error.message, { resultObject: { errors: error.errors } });
  const { statusCode: status, validation, message, code } = error;
  // Validation names the field ("body/name must be string"): the user (or the developer) sees which.
  if (validation) return sendError(reply, 400, `${t('common.invalid', locale)}: ${message}`);
  const known = FRAMEWORK[code];
  if (known && status) return sendError(reply, status, t(known, locale));
  // A JSON body that a prototype key poisons is refused by the parser with a bare SyntaxError.
  if (error instanceof SyntaxError) return sendError(reply, 400, t('input.badJson', locale));
  if (status && status >= 400 && status < 500) return sendError(reply, status, message ?? '');
  request.log.error(error);
  // Never the stack or the driver's text: those help an attacker more than a user.
  return sendError(reply, 500, t('common.serverError', locale));
}

/** Fastify's frameworkErrors option: a bad URL encoding (400) or an over-long path parameter (414). */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  return errorHandler(error, request, reply);
}

/**
 * Errors Node's HTTP parser meets before Fastify sees a request (a malformed request line, headers
 * too large): answered in the envelope too, in the default language (no headers were read).
 */
export function clientErrorHandler(this: FastifyInstance, error: NodeJS.ErrnoException, socket: Socket) {
  if (error.code === 'ECONNRESET' || socket.destroyed || !socket.writable) return;
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'HPE_URI_TOO_LONG' ? 414 : 400;
  const key: MessageKey =
    status === 431 ? 'input.headersTooLarge' : status === 414 ? 'input.urlTooLong' : 'input.badRequest';
  const body = JSON.stringify({ resultCode: status, resultMessage: t(key, 'zh-CN'), resultObject: null });
  socket.end(
    `HTTP/1.1 ${status} ${status === 431 ? 'Request Header Fields Too Large' : status === 414 ? 'URI Too Long' : 'Bad Request'}\r\n` +
      `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
