import type { FastifyRequest } from 'fastify';
import type { Locale } from '../../../shared/i18n/messages.js';
import type { AuthUser, Caller } from '../identity/actor.js';
import { ApiError } from './envelope.js';

declare module 'fastify' {
  interface FastifyRequest {
    actor: AuthUser | undefined;
    locale: Locale;
  }
  interface FastifyContextConfig {
    /** Route answers without a bearer token. */
    public?: boolean;
  }
}

/** The signed-in user; routes behind the auth hook always have one. */
export function actorOf(request: FastifyRequest): AuthUser {
  if (!request.actor) throw new ApiError(401, 'auth.required');
  return request.actor;
}

/** The caller of a request, for the kernel's services. */
export function callerOf(request: FastifyRequest): Caller {
  return { actor: actorOf(request), locale: request.locale, ip: request.ip };
}

/** Query-string integers arrive as text; a missing or malformed one takes the fallback. */
export function intParam(value: unknown, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
  const n = typeof value === 'number' ? value : Number(value);
  return Number.isInteger(n) && n > 0 ? Math.min(n, max) : fallback;
}

/** A request URL as the log keeps it: the values of password parameters masked (spec 7.2 sends some in the query). */
export const withoutSecrets = (url: string) =>
  url.replace(/([?&](?:passwd|password|newPassword|confirmPassword)=)[^&]*/gi, '$1***');
