import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? filesUnder(full) : /\.tsx?$/.test(e.name) ? [full] : [];
  });
}
const relative = (file: string) => path.relative(root, file);

describe('the kernel keeps what is its own (issue 15)', () => {
  it('is the only server code with SQL on resource_record', () => {
    const outside = filesUnder(path.join(root, 'src/server'))
      .filter((f) => !f.startsWith(path.join(root, 'src/server/kernel') + path.sep))
      .filter((f) => readFileSync(f, 'utf8').includes('resource_record'))
      .map(relative);
    expect(outside).toEqual([]);
  });

  // One exception: the demo month's staff (src/server/demo/api.ts) are clients of the API standing in for
  // people, not a capability reaching another; their requests are answered in process so that the lab
  // time each step runs at (kernel/clock.ts) goes with it.
  it('has no request re-sent inside the server: app.inject is for tests and the demo staff only', () => {
    const injecting = filesUnder(path.join(root, 'src'))
      .filter((f) => relative(f) !== path.join('src', 'server', 'demo', 'api.ts'))
      .filter((f) => /\.inject\(/.test(readFileSync(f, 'utf8')))
      .map(relative);
    expect(injecting).toEqual([]);
  });
});
