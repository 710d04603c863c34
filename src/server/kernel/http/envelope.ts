import type { FastifyReply, FastifyRequest } from 'fastify';
import { t, type MessageKey } from '../../../shared/i18n/messages.js';

/**
 * The spec's two response envelopes (spec 7): most calls answer resultCode / resultMessage /
 * resultObject with 200 for success; the workflow sync calls answer code / message / data with 20000.
 */
export interface Result<T> {
  resultCode: number;
  resultMessage: string;
  resultObject: T;
}

export function ok<T>(resultObject: T, resultMessage = 'success'): Result<T> {
  return { resultCode: 200, resultMessage, resultObject };
}

export function okMessage<T>(
  request: FastifyRequest,
  key: MessageKey,
  resultObject: T,
  vars: Record<string, string | number> = {},
): Result<T> {
  return ok(resultObject, t(key, request.locale, vars));
}

/** A refusal the user should read: HTTP status, the message key in the caller's language, optional detail. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly key: MessageKey,
    readonly vars: Record<string, string | number> = {},
  ) {
    super(key);
  }
}

export const badRequest = (key: MessageKey, vars?: Record<string, string | number>) => new ApiError(400, key, vars);
export const forbidden = () => new ApiError(403, 'auth.forbidden');
export const notFound = () => new ApiError(404, 'common.notFound');
export const conflict = (key: MessageKey = 'common.conflict') => new ApiError(409, key);

export function sendError(reply: FastifyReply, status: number, message: string, extra: object = {}) {
  return reply.code(status).send({ resultCode: status, resultMessage: message, resultObject: null, ...extra });
}

/** A record the schema refuses: every field's message, the first one as the resultMessage. */
export class InvalidRecord extends Error {
  constructor(readonly errors: { field: string; message: string; key?: string }[]) {
    super(errors[0]?.message ?? 'invalid');
  }
}
