import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Capability } from '../../src/server/kernel/capability';
import { InvalidRecord } from '../../src/server/kernel/http/envelope';
import { startInProcess, type InProcessApp } from '../support/in-process';

// Two capabilities with rules on one resource, as the specimen will have (lifecycle, handover, workflow):
// the kernel must run both, in their stated order, inside the write's transaction.
const seen: string[] = [];
const stamping: Capability = {
  name: 'probeStamp',
  hooks: () => [
    {
      resource: 'specimenType',
      order: 10,
      hooks: {
        async beforeWrite(_ctx, data) {
          seen.push('stamp');
          return { ...data, remark: `checked by ${_ctx.actor.userAccount}` };
        },
      },
    },
  ],
};
const guarding: Capability = {
  name: 'probeGuard',
  hooks: () => [
    {
      resource: 'specimenType',
      hooks: {
        async beforeWrite(ctx, data) {
          seen.push('guard');
          if (data.code === 'NO')
            throw new InvalidRecord([{ field: 'code', message: ctx.locale === 'en-US' ? 'refused' : '拒绝' }]);
          return data;
        },
        async afterWrite(_ctx, row) {
          seen.push(`after ${String(row.data.code)}`);
        },
      },
    },
  ],
};

let lims: InProcessApp;
let token = '';
beforeAll(async () => {
  // Listed guard first: the stated order, not the list order, decides who runs first.
  lims = await startInProcess({}, [guarding, stamping]);
  token = (await lims.signIn()).token;
});
afterAll(() => lims?.close());

const create = (code: string) =>
  lims.app.inject({
    method: 'POST',
    url: '/api/resources/specimenType',
    headers: { authorization: `Bearer ${token}` },
    payload: { code, name: `probe ${code}`, category: 'blood' },
  });

describe('rules of several capabilities on one resource', () => {
  it('runs every capability’s rules in their order, none replacing another', async () => {
    seen.length = 0;
    const res = await create('PB1');
    expect(res.statusCode).toBe(200);
    expect(seen).toEqual(['stamp', 'guard', 'after PB1']);
    expect(res.json().resultObject.remark).toBe('checked by admin');
  });

  it('stores nothing when a later rule refuses what an earlier one allowed', async () => {
    seen.length = 0;
    const res = await create('NO');
    expect(res.statusCode).toBe(400);
    expect(seen).toEqual(['stamp', 'guard']);
    const list = await lims.app.inject({
      url: '/api/resources/specimenType?code=NO',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(list.json().resultObject.records).toEqual([]);
  });
});
