import type { Locale } from '../../../shared/i18n/messages.js';
import type { ScreenSchema } from '../../../shared/screens/fields.js';
import type { RecordValues } from '../../../shared/screens/predicate.js';
import type { AuthUser } from '../identity/actor.js';
import type { Queryable } from '../db/database.js';
import type { StoredRecord } from './repository.js';

/** Where a generic write happens: its transaction, the screen, who writes, and the stored row it changes (none on create). */
export interface WriteContext {
  tx: Queryable;
  screen: ScreenSchema;
  actor: AuthUser;
  locale: Locale;
  ip: string;
  current?: StoredRecord;
}

/**
 * Rules of a resource that the schema cannot say (a specimen in one open handover at a time, a
 * confirmed record no longer editable), kept in the capability that owns them and run by the generic
 * resource inside each write's transaction, so no path around them exists. A hook refuses by throwing
 * InvalidRecord (nothing is written then).
 */
export interface ResourceHooks {
  /** Before a create or an update is stored: answers the data to store (it may fill server-kept fields). */
  beforeWrite?(ctx: WriteContext, data: RecordValues): Promise<RecordValues>;
  /** After the row is stored: rows that follow from it (in the same transaction). */
  afterWrite?(ctx: WriteContext, row: StoredRecord): Promise<void>;
  /** Before a row is deleted: may refuse, or remove the rows that belong to it. */
  beforeDelete?(ctx: WriteContext & { current: StoredRecord }): Promise<void>;
}

const registry = new Map<string, ResourceHooks>();

/** Registered once at start-up by the capability that owns the resource's rules. */
export function registerResourceHooks(resource: string, hooks: ResourceHooks): void {
  registry.set(resource, hooks);
}

export function hooksOf(resource: string): ResourceHooks | undefined {
  return registry.get(resource);
}
