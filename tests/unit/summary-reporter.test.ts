import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TestModule } from 'vitest/node';
import { slowestFiles } from '../support/summary-reporter';

/** A test file as the reporter sees it at the end of a run: its project, path and timings (ms). */
const file = (project: string, name: string, testsMs: number, importMs = 0): TestModule =>
  ({
    project: { name: project },
    moduleId: path.join(process.cwd(), name),
    diagnostic: () => ({
      environmentSetupDuration: 0,
      prepareDuration: 0,
      setupDuration: 0,
      collectDuration: importMs,
      duration: testsMs,
    }),
  }) as unknown as TestModule;

describe('the slowest test files at the end of npm test', () => {
  it('lists the ten slowest, slowest first, with seconds, project and path, import time included', () => {
    const files = Array.from({ length: 12 }, (_, i) => file('api', `tests/api/f${i}.test.ts`, i * 1000));
    files.push(file('e2e', 'tests/e2e/designer.test.ts', 90_000, 2_500));
    const lines = slowestFiles(files).trim().split('\n');
    expect(lines[0]).toBe('Slowest 10 test files:');
    expect(lines.slice(1).map((l) => l.trim().split(/\s+/))).toEqual([
      ['92.5', 's', 'e2e', 'tests/e2e/designer.test.ts'],
      ...[11, 10, 9, 8, 7, 6, 5, 4, 3].map((i) => [`${i}.0`, 's', 'api', `tests/api/f${i}.test.ts`]),
    ]);
  });

  it('lists all of a shorter run, and nothing for an empty one', () => {
    expect(slowestFiles([file('unit', 'tests/unit/a.test.ts', 40)])).toContain('Slowest 1 test file:');
    expect(slowestFiles([])).toBe('');
  });
});
