import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeTable, type RouteEntry } from '../../src/server/app';
import { fieldJsonSchema, serverKept } from '../../src/shared/screens/fields';
import type { FieldDef, ScreenSchema } from '../../src/shared/screens/fields';
import { startInProcess, type InProcessApp } from '../support/in-process';

/**
 * Issue 20, property-based: every write endpoint (each POST, PUT and DELETE of the server's route
 * table, the generic ones for every screen resource) gets bodies that are wrong in at least one way the
 * server must notice: a value of the wrong type for a field its schema or screen declares, a required
 * field missing, an unknown field, a string past its length, a NUL, nesting past 32 levels, a
 * `__proto__` or `constructor.prototype` key, NaN or Infinity, a bad id in the path, a body past the
 * size limit; beside them, noise of odd Unicode and extra keys. Every answer is a 4xx in the spec's
 * envelope with a message, and nothing is stored: the row counts of every table stay as they were.
 */
const RUNS = Number(process.env.LIMS_FUZZ_RUNS ?? 10_000);

const addFormats = (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule;
const ajv = new Ajv({ strict: false, coerceTypes: false, allErrors: false });
addFormats(ajv);

const schemaDir = path.resolve(import.meta.dirname, '../../schemas/screens');
const SCREENS = readdirSync(schemaDir)
  .filter((f) => f.endsWith('.json'))
  .map((f) => JSON.parse(readFileSync(path.join(schemaDir, f), 'utf8')) as ScreenSchema);
const byResource = new Map(SCREENS.map((s) => [s.resource.name, s]));

let lims: InProcessApp;
let token: string;
/** Per screen resource, the id of a record of the main lab (for updates and transitions), when it has one. */
const existing = new Map<string, { id: number; version?: number }>();
let targets: Target[];
let answered = 0;
/** Answers by defect and status, printed: what the run tried and how it was refused. */
const tally: Record<string, number> = {};

/** A write call to fuzz: its method and path, and what its body must be. */
interface Target {
  method: string;
  url: string;
  /** The route's declared body schema, or the screen record's. */
  check?: ValidateFunction;
  /** Fields whose wrong-typed value must be refused: the declared properties, or a screen's writable fields. */
  fields: { key: string; check: ValidateFunction }[];
  required: string[];
  /** Whether an unknown key is refused (screen records: additionalProperties false). */
  closed: boolean;
  hasId: boolean;
  /** What every body of the call carries: the version seen, for an update (else the answer is a conflict). */
  base: Record<string, unknown>;
}

const compiled = new WeakMap<object, ValidateFunction>();
function compile(schema: object): ValidateFunction {
  let fn = compiled.get(schema);
  if (!fn) compiled.set(schema, (fn = ajv.compile(schema)));
  return fn;
}

function screenFields(screen: ScreenSchema | undefined) {
  const writable = (screen?.fields ?? []).filter((f: FieldDef) => !serverKept(f));
  return writable.map((f) => ({ key: f.key, check: compile({ anyOf: [fieldJsonSchema(f), { type: 'null' }] }) }));
}

function targetsOf(route: RouteEntry): Target[] {
  if (!['POST', 'PUT', 'DELETE'].includes(route.method)) return [];
  const resources = route.url.includes(':resource') ? [...byResource.keys()] : [''];
  return resources.map((resource) => {
    const screen = byResource.get(resource);
    const id = existing.get(resource)?.id ?? 1;
    const url = route.url
      .replace(':resource', resource)
      .replace(/:(\w+)/g, (_, name: string) =>
        name === 'name' ? (screen?.resource.lifecycle?.transitions[0]?.name ?? 'x') : String(id),
      );
    const body = route.body as { properties?: Record<string, object>; required?: string[] } | undefined;
    // The generic create and update take a screen's record; other routes their declared body.
    const isRecord = /^\/api\/resources\/:resource(\/:id)?$/.test(route.url) && route.method !== 'DELETE';
    const fields = isRecord
      ? screenFields(screen)
      : Object.entries(body?.properties ?? {}).map(([key, s]) => ({ key, check: compile(s) }));
    const required = isRecord ? [] : (body?.required ?? []);
    return {
      method: route.method,
      url,
      check: body ? compile(body) : undefined,
      fields,
      required,
      closed: isRecord && route.method === 'POST',
      hasId: /:\w*id\b/i.test(route.url),
      base: isRecord && route.method === 'PUT' ? { version: existing.get(resource)?.version } : {},
    };
  });
}

/** Strings a careless parser chokes on: lone surrogates, right-to-left marks, emoji, combining marks. */
const oddText = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.constantFrom(
    '\ud800',
    '\udfff\ud800',
    '\u202e\u0041',
    '👩‍🔬'.repeat(30),
    'e\u0301\u0301\u0301',
    '\ufeff',
    '%00',
    "'; drop table app_user; --",
  ),
);
const noise = fc.dictionary(
  fc.oneof(oddText, fc.constantFrom('toString', 'valueOf', 'hasOwnProperty')),
  fc.jsonValue({ maxDepth: 2 }),
  {
    maxKeys: 4,
  },
);
const anyValue = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom('NaN', 'Infinity', '-0', '1e309', '', ' ', 'true', '[]', '{}', -1, 0, 2 ** 53, -(2 ** 31) - 1, 1.5),
);

/** How a body is wrong; `raw` bodies are sent as written (not valid JSON, or a key JSON.stringify would drop). */
type Defect =
  | { kind: 'wrongType' | 'unknownField' | 'missing' | 'tooLong'; body: (t: Target) => Record<string, unknown> | null }
  | { kind: 'nul' | 'tooDeep' | 'proto' | 'constructor' | 'nan' | 'huge'; raw: (t: Target) => string }
  | { kind: 'badId'; id: string };

function wrongTypeDefect(): fc.Arbitrary<Defect> {
  return fc.tuple(fc.nat(), anyValue, noise).map(([pick, value, extra]) => ({
    kind: 'wrongType' as const,
    body: (t: Target) => {
      if (t.fields.length === 0) return null;
      const field = t.fields[pick % t.fields.length]!;
      if (field.check(value)) return null;
      return { ...extra, [field.key]: value };
    },
  }));
}

const weighed = (weight: number, arbitrary: fc.Arbitrary<Defect>) => ({ weight, arbitrary });
const defects: fc.Arbitrary<Defect> = fc.oneof(
  weighed(40, wrongTypeDefect()),
  weighed(
    8,
    fc.tuple(oddText, anyValue).map(([key, value]) => ({
      kind: 'unknownField' as const,
      body: (t: Target) => (t.closed && !t.fields.some((f) => f.key === `x-${key}`) ? { [`x-${key}`]: value } : null),
    })),
  ),
  weighed(
    8,
    fc.tuple(fc.nat(), noise).map(([pick, extra]) => ({
      kind: 'missing' as const,
      body: (t: Target) => {
        if (t.required.length === 0) return null;
        const body = Object.fromEntries(t.required.map((k) => [k, 'x']));
        delete body[t.required[pick % t.required.length]!];
        return { ...extra, ...body };
      },
    })),
  ),
  weighed(
    10,
    fc.tuple(fc.nat(), fc.integer({ min: 1, max: 5000 })).map(([pick, over]) => ({
      kind: 'tooLong' as const,
      body: (t: Target) => {
        if (t.fields.length === 0) return null;
        const field = t.fields[pick % t.fields.length]!;
        const value = 'x'.repeat(over + 10_000);
        return field.check(value) ? null : { [field.key]: value };
      },
    })),
  ),
  weighed(
    6,
    fc.tuple(oddText, fc.nat()).map(([text, at]) => ({
      kind: 'nul' as const,
      raw: () => JSON.stringify({ name: `${text.slice(0, at % (text.length + 1))}\u0000${text}` }),
    })),
  ),
  weighed(
    6,
    fc.integer({ min: 33, max: 5000 }).map((depth) => ({
      kind: 'tooDeep' as const,
      raw: () => `{"a":${'['.repeat(depth)}1${']'.repeat(depth)}}`,
    })),
  ),
  weighed(
    6,
    fc.tuple(fc.integer({ min: 0, max: 3 }), noise).map(([depth, extra]) => ({
      kind: 'proto' as const,
      raw: () =>
        `${'{"a":'.repeat(depth)}{"__proto__":{"admin":true},"n":${JSON.stringify(extra)}}${'}'.repeat(depth)}`,
    })),
  ),
  weighed(
    6,
    fc.integer({ min: 0, max: 3 }).map((depth) => ({
      kind: 'constructor' as const,
      raw: () => `${'{"a":'.repeat(depth)}{"constructor":{"prototype":{"admin":true}}}${'}'.repeat(depth)}`,
    })),
  ),
  weighed(
    6,
    fc.constantFrom('NaN', 'Infinity', '-Infinity', 'undefined', '1e309e', "'x'").map((literal) => ({
      kind: 'nan' as const,
      raw: () => `{"version":${literal},"name":"x"}`,
    })),
  ),
  // Rare: each costs a megabyte on the wire.
  weighed(1, fc.constant({ kind: 'huge' as const, raw: () => JSON.stringify({ name: 'x'.repeat(1_100_000) }) })),
  weighed(
    8,
    fc
      .constantFrom('1e309', '-1', '0', '1.5', '99999999999999999999', '0x1f', 'NaN', '2147483648', '%00')
      .map((id) => ({
        kind: 'badId' as const,
        id,
      })),
  ),
);

beforeAll(async () => {
  lims = await startInProcess();
  token = (await lims.signIn('admin')).token;
  for (const screen of SCREENS) {
    const res = await lims.app.inject({
      method: 'GET',
      url: `/api/resources/${screen.resource.name}?size=1`,
      headers: { authorization: `Bearer ${token}` },
    });
    const first = (res.json() as { resultObject?: { records?: { id: number; version?: number }[] } }).resultObject
      ?.records?.[0];
    if (first) existing.set(screen.resource.name, first);
  }
  // Calls without a body to be wrong (log clearing, a model's deletion) would only do their work.
  targets = routeTable(lims.app)
    .filter((r) => !r.public && r.url !== '/api/log/deleteAll')
    .flatMap(targetsOf);
}, 180_000);

afterAll(async () => {
  console.log(`fuzzed writes: ${answered} bad bodies over ${targets?.length ?? 0} write calls`, tally);
  await lims?.close();
});

/** Row counts of every table of the database: a refused call leaves each as it was. */
async function rowCounts(): Promise<Record<string, number>> {
  const tables = await lims.db.query<{ name: string }>(
    `select table_name as name from information_schema.tables
      where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`,
  );
  const counts: Record<string, number> = {};
  for (const { name } of tables) {
    const rows = await lims.db.query<{ n: number }>(`select count(*)::int as n from "${name}"`);
    counts[name] = rows[0]!.n;
  }
  return counts;
}

/** The call a defect makes of a target, or null where it does not apply (no declared field, no id). */
function requestOf(target: Target, defect: Defect): { url: string; payload: string } | null {
  if ('body' in defect) {
    const body = defect.body(target);
    return body === null ? null : { url: target.url, payload: JSON.stringify({ ...target.base, ...body }) };
  }
  if (defect.kind === 'badId')
    return target.hasId ? { url: target.url.replace(/\/\d+(?=\/|$)/, `/${defect.id}`), payload: '{}' } : null;
  return { url: target.url, payload: defect.raw(target) };
}

const requests = fc
  .tuple(fc.nat(), defects)
  .map(([pick, defect]) => {
    const target = targets[pick % targets.length]!;
    const request = requestOf(target, defect);
    return request && { target, kind: defect.kind, ...request };
  })
  .filter((r): r is NonNullable<typeof r> => r !== null);

describe('bad bodies on every write endpoint', () => {
  it(`answers each of ${RUNS} with a 4xx in the envelope and stores nothing`, async () => {
    const before = await rowCounts();
    const failures: string[] = [];
    await fc
      .assert(
        fc.asyncProperty(requests, async ({ target, url, payload, kind }) => {
          const res = await lims.app.inject({
            method: target.method as 'POST',
            url,
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            payload,
          });
          answered++;
          tally[`${kind} ${res.statusCode}`] = (tally[`${kind} ${res.statusCode}`] ?? 0) + 1;
          let body: { resultCode?: unknown; resultMessage?: unknown } = {};
          try {
            body = res.json();
          } catch {
            // Checked below.
          }
          const good =
            res.statusCode >= 400 &&
            res.statusCode < 500 &&
            body.resultCode === res.statusCode &&
            typeof body.resultMessage === 'string' &&
            body.resultMessage.length > 0;
          if (!good)
            failures.push(
              `${target.method} ${url} [${kind}] ${payload.slice(0, 200)} → ${res.statusCode} ${res.body.slice(0, 200)}`,
            );
          return good;
        }),
        { numRuns: RUNS, endOnFailure: true },
      )
      .catch((e: Error) => {
        throw new Error(`${failures.slice(0, 5).join('\n')}\n${e.message.split('\n').slice(0, 3).join('\n')}`);
      });
    expect(answered).toBeGreaterThanOrEqual(RUNS);
    expect(await rowCounts()).toEqual(before);
  }, 300_000);
});
