import { describe, expect, it } from 'vitest';
import { columnPreferences, setHiddenColumns } from './columns';

describe('the columns a user hid', () => {
  it('are kept per user and per list, in the browser, and forgotten when none is hidden', async () => {
    setHiddenColumns(1, 'handover-record', ['boxNo', 'sealNo']);
    setHiddenColumns(2, 'handover-record', ['storage']);
    expect(columnPreferences.chosen['1:handover-record']).toEqual(['boxNo', 'sealNo']);
    expect(columnPreferences.chosen['2:handover-record']).toEqual(['storage']);
    // valtio writes after the change, at the end of the task.
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(JSON.parse(localStorage.getItem('lims-columns') ?? '{}')).toMatchObject({
      '1:handover-record': ['boxNo', 'sealNo'],
    });
    setHiddenColumns(1, 'handover-record', []);
    expect('1:handover-record' in columnPreferences.chosen).toBe(false);
  });
});
