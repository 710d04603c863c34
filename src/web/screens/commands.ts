import { AxiosError, type AxiosResponse } from 'axios';
import { http } from '../api/http';
import type { Locale } from '../../shared/i18n/messages';
import { fieldByKey, optionLabel, type ActionDef, type ScreenSchema } from '../../shared/screens/fields';
import type { RecordValues } from '../../shared/screens/predicate';
import type { ScreenRecord } from './dataProvider';
import { saveFile } from './download';

/** What a command gets to work on: the row of a row action, the selected rows of a batch one, none on the toolbar. */
export interface CommandContext {
  screen: ScreenSchema;
  action: ActionDef;
  records: ScreenRecord[];
  locale: Locale;
  /** What the user typed into the command's dialog (action.fields), when it has one. */
  values?: RecordValues;
  /** The list's current query (filters and sort), for a toolbar command that works on the list. */
  listQuery?: Record<string, string>;
}

/** What came of a command, for the user to see (issue 25: every command shows its outcome). */
export interface CommandOutcome {
  /** The success text, instead of the generic one. */
  text?: string;
  /** Values of the answer the user must see (action.result), labelled, in the schema's order. */
  values?: { label: string; value: string }[];
  /** Names of the files the answer saved. */
  files?: string[];
}

/** A command written in TypeScript; it may answer the success text to show (else the generic one), or more. */
export type CommandHandler = (context: CommandContext) => Promise<string | CommandOutcome | void>;

const registry = new Map<string, CommandHandler>();

/**
 * Commands richer than "call this endpoint" are registered here by name, and a schema action names
 * them (kind command, name). Schemas never carry code (issue 7).
 */
export function registerCommand(name: string, handler: CommandHandler): () => void {
  registry.set(name, handler);
  return () => {
    if (registry.get(name) === handler) registry.delete(name);
  };
}

/** `{id}`, `{code}` … of an endpoint path filled from the record, each value URL-encoded. */
export function fillPath(endpoint: string, record: ScreenRecord | undefined): string {
  return endpoint.replace(/\{(\w+)\}/g, (_, key: string) => encodeURIComponent(String(record?.[key] ?? '')));
}

const hasPlaceholders = (endpoint: string) => /\{\w+\}/.test(endpoint);

/** The name a file answer asks to be saved under (RFC 6266 filename* first), else a fallback. */
export function fileNameOf(disposition: string | undefined, fallback: string): string {
  const star = /filename\*=UTF-8''([^;]+)/i.exec(disposition ?? '')?.[1];
  if (star) return decodeURIComponent(star);
  return /filename="?([^";]+)"?/i.exec(disposition ?? '')?.[1] ?? fallback;
}

/** A failed call asked for as a file answers its error envelope as a Blob: read it back so the user sees the server's words. */
async function readBlobError(error: unknown): Promise<never> {
  if (error instanceof AxiosError && error.response?.data instanceof Blob) {
    try {
      error.response.data = JSON.parse(await error.response.data.text()) as unknown;
    } catch {
      // Not JSON: the generic failure message stands.
    }
  }
  throw error;
}

/** Saves a file answer and names it; a JSON answer of a download command (e.g. confirm without printing) is read as any other. */
async function takeFile(response: AxiosResponse<Blob>, action: ActionDef): Promise<{ file?: string; body?: unknown }> {
  const type = String(response.headers['content-type'] ?? '');
  if (type.includes('application/json')) {
    try {
      return { body: JSON.parse(await response.data.text()) as unknown };
    } catch {
      return {};
    }
  }
  const file = fileNameOf(
    response.headers['content-disposition'] as string | undefined,
    action.label?.['zh-CN'] ?? 'download',
  );
  saveFile(response.data, file);
  return { file };
}

/** A value of an answer as the user reads it: a field's option label, a list one item after another. */
function readable(screen: ScreenSchema, key: string, value: unknown, locale: Locale): string {
  if (Array.isArray(value)) return value.map((v) => readable(screen, key, v, locale)).join(', ');
  if (value === null || value === undefined) return '';
  return optionLabel(fieldByKey(screen, key), value, locale) ?? String(value);
}

/** The values action.result names, read from one answer's envelope. */
function resultValues(context: CommandContext, body: unknown): { label: string; value: string }[] {
  const { screen, action, locale } = context;
  const object = (body as { resultObject?: unknown } | undefined)?.resultObject;
  if (!action.result || !object || typeof object !== 'object') return [];
  return (
    action.result
      .map((r) => ({
        label: r.label?.[locale] ?? fieldByKey(screen, r.field)?.label[locale] ?? r.field,
        value: readable(screen, r.field, (object as Record<string, unknown>)[r.field], locale),
      }))
      // A value the answer left empty (no rule broken) is not news.
      .filter((v) => v.value !== '')
  );
}

/**
 * A command the schema answers by its endpoint alone: one call per row when the path names a row, else
 * one call (with the selected ids, or the list's query on the toolbar). The dialog's values go in the
 * body of a POST / PUT and in the query of a GET / DELETE; a download command saves the file answered.
 * It answers what the user must see: the files saved, and the values of action.result.
 */
async function callEndpoint(context: CommandContext): Promise<CommandOutcome> {
  const { action, records, values, listQuery } = context;
  const endpoint = action.endpoint!;
  const method = action.method ?? 'POST';
  const withBody = method === 'POST' || method === 'PUT';
  const outcome: Required<Pick<CommandOutcome, 'values' | 'files'>> = { values: [], files: [] };
  const send = async (url: string, extra: RecordValues = {}) => {
    const input = { ...extra, ...values };
    const given = Object.keys(input).length > 0;
    const response = await http
      .request<Blob>({
        url,
        method,
        ...(given && (withBody ? { data: input } : { params: input })),
        ...(action.download && { responseType: 'blob' as const }),
      })
      .catch(readBlobError);
    const { file, body } = action.download ? await takeFile(response, action) : { body: response.data };
    if (file) outcome.files.push(file);
    outcome.values.push(...resultValues(context, body));
  };
  if (hasPlaceholders(endpoint)) {
    // One after another: the second call sees what the first changed, and a failure stops the rest.
    for (const record of records) await send(fillPath(endpoint, record));
  } else if (records.length > 0) {
    // In a query the ids travel as one comma-separated value (ids=3,4), as the server's batch calls read them.
    const ids = records.map((r) => r.id);
    await send(endpoint, { ids: withBody ? ids : ids.join(',') });
  } else {
    await send(endpoint, withBody ? {} : (listQuery ?? {}));
  }
  return outcome;
}

/** The handler that runs an action: its registered one, else its endpoint; none when it has neither. */
export function commandHandler(action: ActionDef): CommandHandler | undefined {
  if (action.name && registry.has(action.name)) return registry.get(action.name);
  return action.endpoint ? callEndpoint : undefined;
}
