import type { HookRegistration } from '../kernel/resources/hooks.js';

/**
 * Who entered a specimen and through which screen are the server's to say, never typed: the signed-in
 * user on create (any entry screen, an import); kept as they are on every later write.
 */
export const specimenEntry: HookRegistration = {
  resource: 'specimen',
  order: 10,
  hooks: {
    async beforeWrite({ actor, current }, data) {
      if (current)
        return {
          ...data,
          enteredBy: current.data.enteredBy,
          enteredByAccount: current.data.enteredByAccount,
          entrySource: current.data.entrySource,
        };
      return {
        ...data,
        enteredBy: actor.userName,
        enteredByAccount: actor.userAccount,
        entrySource: data.entrySource ?? 'front',
      };
    },
  },
};
