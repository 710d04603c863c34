import { screenMessage } from '../../shared/screens/messages.js';
import { InvalidRecord } from '../kernel/http/envelope.js';
import type { HookRegistration } from '../kernel/resources/hooks.js';

/**
 * Two controls of one form page may not share a key: a jump condition would not know which one it
 * tests. Held on every write of a form element, whichever call or screen makes it.
 */
export const elementKeyOncePerPage: HookRegistration = {
  resource: 'formElement',
  hooks: {
    async beforeWrite({ tx, kernel, actor, locale, screen, current }, data) {
      const taken = await kernel.records.find(tx, 'formElement', actor.orgId, {
        formId: Number(data.formId) || 0,
        logicalName: String(data.logicalName ?? ''),
      });
      if (!taken.some((row) => row.id !== current?.id)) return data;
      const label = screen.fields.find((f) => f.key === 'logicalName')?.label[locale] ?? 'logicalName';
      const message = screenMessage('field.unique', locale, { label, value: String(data.logicalName) });
      throw new InvalidRecord([{ field: 'logicalName', key: 'field.unique', message }]);
    },
  },
};
