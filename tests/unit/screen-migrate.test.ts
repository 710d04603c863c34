import { describe, expect, it } from 'vitest';
import { CURRENT_SCREEN_VERSION, migrateScreen } from '../../src/shared/screens/migrate';

/** A screen file written for version 2 keeps working: its one description shows in both languages. */
describe('schemaVersion 2 → 3', () => {
  const v2 = {
    schemaVersion: 2,
    id: 'reagent',
    fields: [
      { key: 'lot', type: 'text', description: 'Lot number printed on the box.' },
      {
        key: 'rows',
        type: 'list',
        description: 'Boxes received in this delivery.',
        itemFields: [{ key: 'box', type: 'text', description: 'Number of one box.' }],
      },
      { key: 'name', type: 'text', description: { 'zh-CN': '名称', 'en-US': 'Name' } },
    ],
    actions: { row: [{ kind: 'command', fields: [{ key: 'why', type: 'text', description: 'Why it is done.' }] }] },
  };

  it('gives each description both languages, nested rows and command inputs included', () => {
    const v3 = migrateScreen(v2) as typeof v2;
    expect(v3.schemaVersion).toBe(CURRENT_SCREEN_VERSION);
    expect(v3.fields[0]!.description).toEqual({
      'zh-CN': 'Lot number printed on the box.',
      'en-US': 'Lot number printed on the box.',
    });
    expect((v3.fields[1]!.itemFields as { description: unknown }[])[0]!.description).toEqual({
      'zh-CN': 'Number of one box.',
      'en-US': 'Number of one box.',
    });
    expect(v3.fields[2]!.description).toEqual({ 'zh-CN': '名称', 'en-US': 'Name' });
    expect(v3.actions.row[0]!.fields[0]!.description).toEqual({
      'zh-CN': 'Why it is done.',
      'en-US': 'Why it is done.',
    });
  });

  it('takes the Chinese text from a translation table when the migration script has one', () => {
    const v3 = migrateScreen(v2, (en) =>
      en === 'Lot number printed on the box.' ? '盒上印的批号。' : undefined,
    ) as typeof v2;
    expect(v3.fields[0]!.description).toEqual({ 'zh-CN': '盒上印的批号。', 'en-US': 'Lot number printed on the box.' });
    expect(v2.fields[0]!.description).toBe('Lot number printed on the box.');
  });
});
