import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { serverBundle } from '../support/build-server';

/**
 * What a server loads before it can answer: the packages the one-file server imports at its top. esbuild
 * hoists the static imports of a lazily imported module (`await import('./x.js')`) to the top of the
 * bundle, so a library written to load on first use (node-postgres, fontkit, the BPMN linter, the Excel
 * and PDF writers) silently becomes part of every start, which every lab pays at each restart and the test
 * suites some hundred times a run. A package every start needs joins this list; any other is imported
 * where it is first used, by the module that owns it (kernel/db/pgDriver.ts is the pattern).
 */
const AT_EVERY_START = [
  // The HTTP server and its plugins, registered as the app is built.
  'fastify',
  '@fastify/compress',
  '@fastify/formbody',
  '@fastify/helmet',
  '@fastify/rate-limit',
  '@fastify/static',
  '@fastify/swagger',
  '@fastify/swagger-ui',
  '@fastify/websocket',
  // The embedded database, opened at start, with the trigram index the searches use.
  '@electric-sql/pglite',
  '@electric-sql/pglite/contrib/pg_trgm',
  // Screen files and request bodies are checked from the first request on.
  'ajv',
  'ajv-formats',
  // Sign-in.
  'argon2',
  // The workflow engine resumes the running instances and their timers at start.
  'bpmn-engine',
  'bpmn-elements',
  'bpmn-elements/gateways',
  '@0dep/piso',
  // Jump conditions are parsed as models are prepared.
  'jsep',
];

/** The package names of the bundle's top-level import statements (node's own modules left out). */
function topLevelPackages(source: string): string[] {
  const names = [...source.matchAll(/^import\s(?:[^'"();]*?\sfrom\s*)?["']([^"']+)["'];?$/gm)].map((m) => m[1]!);
  return [...new Set(names.filter((n) => !n.startsWith('node:')))].sort();
}

describe('the one-file server', () => {
  it('loads at start only the packages every start needs; the rest load with their first use', () => {
    const loaded = topLevelPackages(readFileSync(serverBundle, 'utf8'));
    // The parse found the imports at all (else the check below could pass on nothing).
    expect(loaded).toContain('fastify');
    expect(loaded.filter((name) => !AT_EVERY_START.includes(name))).toEqual([]);
  });

  it('is read correctly: a lazily loaded library hoisted to the top would be caught', () => {
    const hoisted =
      'import pg from "pg";\nimport { Font } from "fontkit";\nimport "node:fs";\n  await import("exceljs");';
    expect(topLevelPackages(hoisted)).toEqual(['fontkit', 'pg']);
  });
});
