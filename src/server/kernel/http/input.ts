import type { FastifyInstance, FastifyRequest, FastifySchema, RouteOptions } from 'fastify';
import { Ajv, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { ApiError } from './envelope.js';

// ajv-formats is CommonJS; under some loaders its function is on .default.
const addFormats = (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule;

/**
 * Input is taken as declared (issue 20). A request's body is checked against its route's schema
 * without converting types: `true` where a name is declared is refused, not stored as "true". The
 * query string and path are text by nature, so their declared numbers and arrays are still read from
 * text. Ids in paths are whole numbers in the database's range before any handler runs; NUL characters
 * (PostgreSQL text cannot hold them, and they cut strings short in C libraries) and structures nested
 * deeper than any screen needs are refused with a 400 as well.
 */

/** The largest value of the integer (int4) columns ids are kept in. */
export const MAX_ID = 2_147_483_647;
/** Deeper than any record (a list field's rows, a workflow's variables) nests; anything more is not ours. */
export const MAX_DEPTH = 32;

const ajvOptions: Options = {
  // Fastify's own defaults, less the coercion.
  useDefaults: true,
  removeAdditional: true,
  allErrors: false,
  addUsedSchema: false,
  strict: false,
};
const bodyAjv = new Ajv({ ...ajvOptions, coerceTypes: false });
const textAjv = new Ajv({ ...ajvOptions, coerceTypes: 'array' });
addFormats(bodyAjv);
addFormats(textAjv);

/** A path id as text: a plain positive integer, no sign, exponent, fraction or leading zero. */
const ID_TEXT = /^[1-9][0-9]{0,9}$/;

export function isPathId(value: unknown): boolean {
  return typeof value === 'string' && ID_TEXT.test(value) && Number(value) <= MAX_ID;
}

/**
 * Params of a route whose `:id` is text (workflow instances and models, screen ids). A route that
 * declares no params schema of its own has its `:id` read as an integer id.
 */
export const textIdParams: FastifySchema['params'] = {
  type: 'object',
  properties: { id: { type: 'string', minLength: 1, maxLength: 200 } },
};

function checkPathIds(route: RouteOptions) {
  const names = [...route.url.matchAll(/:(\w+)/g)].map((m) => m[1]!).filter((name) => name === 'id');
  if (names.length === 0 || route.schema?.params) return;
  const check = async (request: FastifyRequest) => {
    const params = request.params as Record<string, string>;
    for (const name of names)
      if (!isPathId(params[name])) throw new ApiError(400, 'input.badId', { name, max: MAX_ID });
  };
  const own = route.preValidation;
  route.preValidation = own ? [check, ...(Array.isArray(own) ? own : [own])] : check;
}

/** The first NUL character or too-deep structure in a value, as the refusal to answer; undefined when clean. */
export function refusalOf(value: unknown, where: string): ApiError | undefined {
  // Iterative, so that a hostile depth cannot overflow the stack before the limit is seen.
  const stack: { value: unknown; path: string; depth: number }[] = [{ value, path: where, depth: 0 }];
  while (stack.length > 0) {
    const { value: v, path, depth } = stack.pop()!;
    if (typeof v === 'string') {
      if (v.includes('\u0000')) return new ApiError(400, 'input.nul', { field: path });
      continue;
    }
    if (v === null || typeof v !== 'object' || Buffer.isBuffer(v)) continue;
    if (depth >= MAX_DEPTH) return new ApiError(400, 'input.tooDeep', { max: MAX_DEPTH });
    for (const [key, child] of Object.entries(v)) {
      if (key.includes('\u0000')) return new ApiError(400, 'input.nul', { field: path });
      stack.push({ value: child, path: `${path}.${key}`, depth: depth + 1 });
    }
  }
  return undefined;
}

export function installInputRules(app: FastifyInstance): void {
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? bodyAjv : textAjv).compile(schema));
  app.addHook('onRoute', checkPathIds);
  app.addHook('preValidation', async (request) => {
    const refusal =
      refusalOf(request.params, 'params') ?? refusalOf(request.query, 'query') ?? refusalOf(request.body, 'body');
    if (refusal) throw refusal;
  });
}
