import { localDateTime } from '../../shared/time.js';
import type { HookRegistration } from '../kernel/resources/hooks.js';

/**
 * Who entered a specimen, when and through which screen are the server's to say, never typed: the
 * signed-in user and the lab's time on create (any entry screen, an import); kept on every later write.
 */
export const specimenEntry: HookRegistration = {
  resource: 'specimen',
  order: 10,
  hooks: {
    async beforeWrite({ kernel, actor, current }, data) {
      if (current)
        return {
          ...data,
          enteredBy: current.data.enteredBy,
          enteredByAccount: current.data.enteredByAccount,
          enteredAt: current.data.enteredAt,
          entrySource: current.data.entrySource,
        };
      return {
        ...data,
        enteredBy: actor.userName,
        enteredByAccount: actor.userAccount,
        enteredAt: localDateTime(kernel.now(), actor.timeZone),
        entrySource: data.entrySource ?? 'front',
      };
    },
  },
};
