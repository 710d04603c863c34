import { AxiosError, type AxiosResponse } from 'axios';
import { http } from '../api/http';
import type { Locale } from '../../shared/i18n/messages';
import type { ActionDef, ScreenSchema } from '../../shared/screens/fields';
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

/** A command written in TypeScript; it may answer the success text to show (else the generic one). */
export type CommandHandler = (context: CommandContext) => Promise<string | void>;

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

/** Saves a file answer; a JSON answer of a download command (e.g. confirm without printing) is an ordinary success. */
async function takeAnswer(response: AxiosResponse<Blob>, action: ActionDef): Promise<void> {
  const type = String(response.headers['content-type'] ?? '');
  if (type.includes('application/json')) return;
  saveFile(
    response.data,
    fileNameOf(response.headers['content-disposition'] as string | undefined, action.label?.['zh-CN'] ?? 'download'),
  );
}

/**
 * A command the schema answers by its endpoint alone: one call per row when the path names a row, else
 * one call (with the selected ids, or the list's query on the toolbar). The dialog's values go in the
 * body of a POST / PUT and in the query of a GET / DELETE; a download command saves the file answered.
 */
async function callEndpoint({ action, records, values, listQuery }: CommandContext): Promise<void> {
  const endpoint = action.endpoint!;
  const method = action.method ?? 'POST';
  const withBody = method === 'POST' || method === 'PUT';
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
    if (action.download) await takeAnswer(response, action);
  };
  if (hasPlaceholders(endpoint)) {
    // One after another: the second call sees what the first changed, and a failure stops the rest.
    for (const record of records) await send(fillPath(endpoint, record));
    return;
  }
  // In a query the ids travel as one comma-separated value (ids=3,4), as the server's batch calls read them.
  const ids = records.map((r) => r.id);
  if (records.length > 0) return send(endpoint, { ids: withBody ? ids : ids.join(',') });
  return send(endpoint, withBody ? {} : (listQuery ?? {}));
}

/** The handler that runs an action: its registered one, else its endpoint; none when it has neither. */
export function commandHandler(action: ActionDef): CommandHandler | undefined {
  if (action.name && registry.has(action.name)) return registry.get(action.name);
  return action.endpoint ? callEndpoint : undefined;
}
