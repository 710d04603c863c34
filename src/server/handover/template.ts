import type { Locale } from '../../shared/i18n/messages.js';
import type { Queryable } from '../kernel/db/database.js';
import { badRequest } from '../kernel/http/envelope.js';
import type { ConfigKind, ConfigValue } from '../kernel/labConfig/kinds.js';
import { getConfig } from '../kernel/labConfig/store.js';

/** Line fields a slip may print, in the order a lab would choose from. */
export const SLIP_COLUMNS = [
  'barcode',
  'patientName',
  'specimenType',
  'itemNames',
  'checkResult',
  'checkedAt',
  'remark',
] as const;

/** A lab's handover slip: its title, the specimen columns it prints, signature lines, a closing text. */
export interface SlipTemplate {
  title?: string;
  columns: string[];
  signatures: boolean;
  footer?: string;
}

/** The slip a lab prints until it saves its own (customConfig key handoverSlip). */
export const SLIP_KEY = 'handoverSlip';
const DEFAULT_SLIP: SlipTemplate = {
  columns: ['barcode', 'patientName', 'specimenType', 'itemNames', 'checkResult', 'remark'],
  signatures: true,
};

const PROBLEMS = {
  shape: {
    'zh-CN': '应为对象 { title, columns, signatures, footer }',
    'en-US': 'expected an object { title, columns, signatures, footer }',
  },
  columns: {
    'zh-CN': `columns 须为不重复的列名，取自 ${SLIP_COLUMNS.join(', ')}`,
    'en-US': `columns must be distinct names among ${SLIP_COLUMNS.join(', ')}`,
  },
  title: { 'zh-CN': 'title 最多 40 个字', 'en-US': 'title holds at most 40 characters' },
  footer: { 'zh-CN': 'footer 最多 200 个字', 'en-US': 'footer holds at most 200 characters' },
  signatures: { 'zh-CN': 'signatures 须为 true 或 false', 'en-US': 'signatures must be true or false' },
} satisfies Record<string, Record<Locale, string>>;

const optionalText = (v: unknown, max: number) => v === undefined || (typeof v === 'string' && v.length <= max);

function checkSlip(value: unknown, locale: Locale): { value: ConfigValue } | { problem: string } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { problem: PROBLEMS.shape[locale] };
  const v = value as Record<string, unknown>;
  if (Object.keys(v).some((k) => !['title', 'columns', 'signatures', 'footer'].includes(k)))
    return { problem: PROBLEMS.shape[locale] };
  const columns = v.columns;
  const known = (c: unknown) => typeof c === 'string' && (SLIP_COLUMNS as readonly string[]).includes(c);
  if (
    !Array.isArray(columns) ||
    columns.length === 0 ||
    !columns.every(known) ||
    new Set(columns).size !== columns.length
  )
    return { problem: PROBLEMS.columns[locale] };
  if (!optionalText(v.title, 40)) return { problem: PROBLEMS.title[locale] };
  if (!optionalText(v.footer, 200)) return { problem: PROBLEMS.footer[locale] };
  if (v.signatures !== undefined && typeof v.signatures !== 'boolean') return { problem: PROBLEMS.signatures[locale] };
  const slip: SlipTemplate = { columns: columns as string[], signatures: v.signatures !== false };
  if (typeof v.title === 'string' && v.title.trim()) slip.title = v.title.trim();
  if (typeof v.footer === 'string' && v.footer.trim()) slip.footer = v.footer.trim();
  return { value: slip as unknown as ConfigValue };
}

/** handoverSlip, and further slips of the lab as handoverSlip.<name> (a template id of the print calls). */
export const slipConfigKind: ConfigKind = {
  owns: (key) => key === SLIP_KEY || key.startsWith(`${SLIP_KEY}.`),
  defaults: (key) => (key === SLIP_KEY ? (DEFAULT_SLIP as unknown as ConfigValue) : undefined),
  check: checkSlip,
};

/**
 * The slip a print call asks for by templateId (spec 7.2): the lab's saved one, the default slip for
 * none or handoverSlip, and a refusal for a template the lab never saved.
 */
export async function slipTemplate(db: Queryable, orgId: number, templateId: unknown): Promise<SlipTemplate> {
  const key = typeof templateId === 'string' && templateId.trim() ? templateId.trim() : SLIP_KEY;
  if (!slipConfigKind.owns(key)) throw badRequest('handover.template.unknown', { templateId: key.slice(0, 64) });
  const stored = await getConfig(db, orgId, key);
  if (stored) return stored.value as unknown as SlipTemplate;
  if (key === SLIP_KEY) return DEFAULT_SLIP;
  throw badRequest('handover.template.unknown', { templateId: key.slice(0, 64) });
}
