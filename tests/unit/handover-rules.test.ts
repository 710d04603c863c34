import { describe, expect, it } from 'vitest';
import { t } from '../../src/shared/i18n/messages';
import type { Queryable } from '../../src/server/kernel/db/database';
import { InvalidRecord } from '../../src/server/kernel/http/envelope';
import type { WriteContext } from '../../src/server/kernel/resources/hooks';
import type { StoredRecord } from '../../src/server/kernel/resources/repository';
import type { RecordStore } from '../../src/server/kernel/resources/store';
import { barcodeProblem, MAX_SPECIMENS, splitBarcodes } from '../../src/server/handover/barcodes';
import { checkedBarcodes, handoverRules, refuseClosed } from '../../src/server/handover/rules';
import { isOpen } from '../../src/server/handover/store';

/**
 * The rules of a handover slip (domain: a specimen is never on two open handovers; a received slip is
 * the lab's record of custody). The rules read other handovers through the record store; here a store
 * of a few rows in memory stands in for the database.
 */
const ORG = 1;
let nextId = 100;
const row = (data: Record<string, unknown>, id = nextId++): StoredRecord => ({
  id,
  version: 1,
  orgId: ORG,
  syncFlag: 0,
  sourceId: null,
  createdAt: new Date(),
  updatedAt: new Date(),
  data,
});

/** Handovers and their lines in memory, answering the few store calls the rules make. */
function storeOf(handovers: StoredRecord[], lastNumberOfDay = 0): RecordStore {
  const lines = handovers.flatMap((h) =>
    splitBarcodes(h.data.barcodes).map((barcode) => row({ handover: h.id, barcode })),
  );
  const fake = {
    async find(_db: Queryable, resource: string, orgId: number, where: { barcode?: string[] }) {
      // Every barcode but those starting with X is a registered specimen of the lab.
      if (resource === 'specimen')
        return (where.barcode ?? [])
          .filter((b) => !b.startsWith('X'))
          .map((barcode) => row({ barcode, status: 'registered' }));
      if (resource !== 'handoverItem') return [];
      return lines.filter((l) => l.orgId === orgId && where.barcode?.includes(String(l.data.barcode)));
    },
    async byIds(_db: Queryable, resource: string, orgId: number, ids: readonly number[]) {
      if (resource !== 'handoverRecord') return [];
      return ids.flatMap((id) => handovers.filter((h) => h.id === id && h.orgId === orgId));
    },
    async nextNumber(_db: Queryable, _resource: string, _orgId: number, _field: string, prefix: string) {
      return `${prefix}${String(lastNumberOfDay + 1).padStart(4, '0')}`;
    },
  };
  return fake as unknown as RecordStore;
}

const tx = {} as Queryable;

/** The refusal a rule throws, or undefined when it lets the write through. */
async function refusal(run: () => unknown): Promise<InvalidRecord['errors'] | undefined> {
  try {
    await run();
    return undefined;
  } catch (e) {
    if (e instanceof InvalidRecord) return e.errors;
    throw e;
  }
}

describe('a received handover is closed', () => {
  it.each([['open'], ['transit'], [undefined]])('a handover with status %s may still change', async (status) => {
    expect(isOpen(row({ status }))).toBe(true);
    expect(await refusal(() => refuseClosed(row({ status, handoverNo: 'JJ1' }), 'zh-CN'))).toBeUndefined();
  });

  it('refuses a received one, naming it, in the caller’s language', async () => {
    const received = row({ status: 'received', handoverNo: 'JJ20260305-0002' });
    expect(isOpen(received)).toBe(false);
    expect(await refusal(() => refuseClosed(received, 'zh-CN'))).toEqual([
      { field: '', message: t('handover.closed', 'zh-CN', { handoverNo: 'JJ20260305-0002' }) },
    ]);
    expect((await refusal(() => refuseClosed(received, 'en-US')))?.[0]?.message).toBe(
      'Handover JJ20260305-0002 has been received; it can no longer be changed, deleted or confirmed again',
    );
  });

  it('names a received handover without a number by its id', async () => {
    const received = row({ status: 'received' }, 42);
    expect((await refusal(() => refuseClosed(received, 'en-US')))?.[0]?.message).toMatch(/^Handover 42 has been/);
  });
});

describe('the barcodes of a handover', () => {
  it('are read one per line or separated by commas, semicolons and spaces, full-width ones too', () => {
    expect(splitBarcodes('A1\nA2\r\nA3, A4;A5 A6\tA7，A8；A9、A10\n\n')).toEqual([
      'A1',
      'A2',
      'A3',
      'A4',
      'A5',
      'A6',
      'A7',
      'A8',
      'A9',
      'A10',
    ]);
    expect(splitBarcodes(undefined)).toEqual([]);
    expect(splitBarcodes(12)).toEqual([]);
  });

  it('must be at least one, each once, letters digits and - only, up to 30 characters', () => {
    expect(barcodeProblem([], 'en-US')).toBe(t('handover.barcodes.required', 'en-US'));
    expect(barcodeProblem([], 'en-US', false)).toBeUndefined();
    expect(barcodeProblem(['A-1', 'b2'], 'en-US')).toBeUndefined();
    expect(barcodeProblem(['A1', 'A2', 'A1'], 'en-US')).toBe('Barcode A1 is listed twice');
    expect(barcodeProblem(['A_1'], 'en-US')).toBe('Barcode A_1 is not valid: letters, digits and - only');
    expect(barcodeProblem(['标本1'], 'en-US')).toMatch(/not valid/);
    expect(barcodeProblem(['X'.repeat(30)], 'en-US')).toBeUndefined();
    expect(barcodeProblem(['X'.repeat(31)], 'en-US')).toMatch(/not valid/);
  });

  it(`are at most ${MAX_SPECIMENS} on one slip`, () => {
    const many = (n: number) => Array.from({ length: n }, (_, i) => `S${i}`);
    expect(barcodeProblem(many(MAX_SPECIMENS), 'en-US')).toBeUndefined();
    expect(barcodeProblem(many(MAX_SPECIMENS + 1), 'en-US')).toBe(
      t('handover.barcodes.tooMany', 'en-US', { n: MAX_SPECIMENS }),
    );
  });
});

describe('a specimen is on one open handover at a time', () => {
  const openOne = row({ status: 'open', handoverNo: 'JJ-OPEN', barcodes: 'S1\nS2\nS3\nS4' });
  const inTransit = row({ status: 'transit', handoverNo: 'JJ-TRANSIT', barcodes: 'T1' });
  const received = row({ status: 'received', handoverNo: 'JJ-DONE', barcodes: 'R1\nR2' });
  const records = storeOf([openOne, inTransit, received]);
  const check = (text: string, exceptId = 0) => checkedBarcodes(records, tx, ORG, text, exceptId, 'en-US');

  it('lets through barcodes on no handover or only on received ones, as scanned', async () => {
    expect(await check('N1\nR1, N2')).toEqual(['N1', 'R1', 'N2']);
  });

  it('refuses a barcode on another open or in-transit handover, naming the specimen and the handover', async () => {
    expect(await refusal(() => check('N1\nS2'))).toEqual([
      { field: 'barcodes', message: t('handover.specimenOpen', 'en-US', { barcode: 'S2', handoverNo: 'JJ-OPEN' }) },
    ]);
    expect((await refusal(() => check('T1')))?.[0]?.message).toContain('JJ-TRANSIT');
  });

  it('does not count the handover being edited', async () => {
    expect(await check('S1\nS2', openOne.id)).toEqual(['S1', 'S2']);
  });

  it('names at most three specimens when many are held', async () => {
    const message = (await refusal(() => check('S1 S2 S3 S4')))?.[0]?.message ?? '';
    expect(message.split('；')).toHaveLength(3);
    expect(message).not.toContain('S4');
  });

  it('refuses malformed lists before looking at other handovers', async () => {
    expect(await refusal(() => check(''))).toEqual([
      { field: 'barcodes', message: t('handover.barcodes.required', 'en-US') },
    ]);
    expect((await refusal(() => check('N1 N1')))?.[0]?.message).toBe('Barcode N1 is listed twice');
  });
});

/** The specimen's screen as far as a handover reads it: which states a specimen may be sent from. */
const screens = {
  owner: () => ({ fields: [], resource: { lifecycle: { transitions: [{ name: 'send', from: ['registered'] }] } } }),
};

describe('what the server keeps on every write of a handover', () => {
  // 20:07:03 UTC is 09:07:03 the next morning in the lab's zone (Auckland, UTC+13 in March): the
  // number's day and the handover time are the lab's, whatever the server's zone.
  const now = new Date(Date.UTC(2026, 2, 4, 20, 7, 3));
  const actor = { id: 7, orgId: ORG, userName: '张护士', userAccount: 'zhang', timeZone: 'Pacific/Auckland' };
  const write = (data: Record<string, unknown>, current?: StoredRecord, records = storeOf([], 7)) =>
    handoverRules.hooks.beforeWrite!(
      { tx, kernel: { records, screens, now: () => now }, actor, locale: 'en-US', current } as unknown as WriteContext,
      data,
    );

  it('numbers a new handover the next of the day, counts its specimens and records who handed it over', async () => {
    expect(await write({ barcodes: 'N1, N2；N3', status: 'received', specimenCount: 99 })).toEqual({
      barcodes: 'N1\nN2\nN3',
      specimenCount: 3,
      status: 'open',
      handoverNo: 'JJ20260305-0008',
      handedBy: '张护士',
      handedByAccount: 'zhang',
      handedAt: '2026-03-05 09:07:03',
    });
  });

  it('refuses a barcode that is no registered specimen', async () => {
    expect((await refusal(() => write({ barcodes: 'N1\nX9' })))?.[0]?.message).toBe(
      'Barcode X9 is no registered specimen; it cannot be handed over',
    );
  });

  it('keeps a number, a name and a time the user gave', async () => {
    const stored = await write({
      barcodes: 'N1',
      handoverNo: 'OWN-1',
      handedBy: '李',
      handedAt: '2026-03-01 08:00:00',
    });
    expect(stored).toMatchObject({ handoverNo: 'OWN-1', handedBy: '李', handedAt: '2026-03-01 08:00:00' });
  });

  it('keeps the stored status and creator on an edit, whatever the edit sends', async () => {
    const current = row({ status: 'transit', handedByAccount: 'wang', handoverNo: 'JJ1', barcodes: 'N1' });
    const stored = await write(
      { barcodes: 'N1\nN2', status: 'open', handedByAccount: 'zhang', handoverNo: 'JJ1' },
      current,
      storeOf([current]),
    );
    expect(stored).toMatchObject({ status: 'transit', handedByAccount: 'wang', specimenCount: 2 });
  });

  it('refuses any edit of a received handover', async () => {
    const current = row({ status: 'received', handoverNo: 'JJ-DONE', barcodes: 'N1' });
    expect((await refusal(() => write({ barcodes: 'N1' }, current)))?.[0]?.message).toMatch(
      /JJ-DONE has been received/,
    );
  });
});
