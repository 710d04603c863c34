import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Answers a spec 7.6 call with the generic resource's own route (issue 7): the same validation, org
 * isolation, locking, operation log and public-data rules, under the name the spec gives the call.
 * The caller's token, language and address travel along, so the log says who did it and from where.
 */
export async function forward(
  request: FastifyRequest,
  reply: FastifyReply,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: unknown,
): Promise<unknown> {
  const answer = await callAs(request, method, url, payload);
  reply.code(answer.status);
  return answer.body;
}

/** The same call, answered to the caller's code instead of straight to the client. */
export async function callAs(
  request: FastifyRequest,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: unknown,
): Promise<{ status: number; body: unknown }> {
  const response = await request.server.inject({
    method,
    url,
    headers: {
      ...(request.headers.authorization && { authorization: request.headers.authorization }),
      ...(request.headers['accept-language'] && { 'accept-language': request.headers['accept-language'] }),
      'x-forwarded-for': request.ip,
    },
    ...(payload !== undefined && { payload: payload as object }),
  });
  return { status: response.statusCode, body: response.json() };
}

/** A query string from plain values, leaving out empty ones. */
export function queryString(values: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}
