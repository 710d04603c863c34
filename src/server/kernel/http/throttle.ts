import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import { ApiError } from './envelope.js';

/**
 * Throttles for the calls that check a password (issue 20): each costs an argon2 hash, so a few clients
 * guessing without a limit keep a core busy, and without one a guesser gets as many tries as it can send.
 * Counted by @fastify/rate-limit in this process's memory (two server processes count apart; the
 * lockout of lockout.ts, in the database, is what holds across them). Over the limit, the answer is a
 * 429 in the spec's envelope saying when to try again, with Retry-After.
 */

/** Names the limiter keeps before it forgets the least recent ones. */
const REMEMBERED_KEYS = 20_000;

/** Registers the limiter's store on the root instance; throttle() then makes limits from it. */
export async function installThrottles(app: FastifyInstance): Promise<void> {
  await app.register(rateLimit, { global: false, cache: REMEMBERED_KEYS });
}

export interface ThrottleRule {
  /** Distinguishes this limit's keys from every other's (sign-in, password change, …). */
  name: string;
  max: number;
  windowSeconds: number;
  /** What is counted: the client's address, an account's name, … ; undefined counts nothing. */
  keyOf(request: FastifyRequest): string | undefined;
}

/**
 * A preHandler hook (the body is read by then, so a key may come from it) that refuses the request
 * once its key has been seen `max` times in the window. Several rules may guard one route; each counts
 * on its own (the plugin's own route hook allows one limit per request).
 */
export function throttle(app: FastifyInstance, rule: ThrottleRule) {
  const limiter = app.createRateLimit({
    max: rule.max,
    timeWindow: rule.windowSeconds * 1000,
    // Keys are bounded: a megabyte of "user name" must not become a megabyte of memory per entry.
    keyGenerator: (request) => `${rule.name}:${(rule.keyOf(request) ?? '').slice(0, 128)}`,
  });
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (rule.keyOf(request) === undefined) return;
    const result = await limiter(request);
    // isAllowed means "not limited at all" (an allow list); within the limit is !isExceeded.
    if (result.isAllowed || !result.isExceeded) return;
    const seconds = Math.max(1, result.ttlInSeconds);
    reply.header('Retry-After', String(seconds));
    request.log.warn({ limit: rule.name, ip: request.ip }, 'throttled');
    throw new ApiError(429, 'auth.tooManyRequests', { n: seconds });
  };
}

/** The client's address, as trustProxy allows it to be read (LIMS_TRUSTED_PROXIES). */
export const byAddress = (request: FastifyRequest) => request.ip;
