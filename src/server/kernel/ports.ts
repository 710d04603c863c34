import type { Locale } from '../../shared/i18n/messages.js';
import type { FormPage } from '../../shared/forms/formPage.js';
import type { Queryable } from './db/database.js';

/** Form pages (spec 7.6) as a workflow task fills one: the forms capability keeps them. */
export interface FormPages {
  load(db: Queryable, orgId: number, formId: number): Promise<FormPage | undefined>;
  /** Refuses values the page does not take (unknown controls, wrong types), in the caller's language. */
  check(page: FormPage, values: Record<string, unknown>, locale: Locale, requireFilled?: boolean): void;
}

/**
 * Services one capability offers the others, declared here so that neither imports the other: the
 * kernel holds the contract, the app wires the capability that provides each.
 */
export interface Ports {
  formPages: FormPages;
}

export const PORT_NAMES = ['formPages'] as const satisfies readonly (keyof Ports)[];
