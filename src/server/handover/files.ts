import type { Locale } from '../../shared/i18n/messages.js';
import { screenAllows } from '../../shared/screens/access.js';
import type { ScreenSchema } from '../../shared/screens/fields.js';
import type { AuthUser } from '../kernel/identity/actor.js';
import type { Queryable } from '../kernel/db/database.js';
import type { RecordStore } from '../kernel/resources/store.js';

export type FileKind = 'image' | 'file';

/** A picture or document kept about a specimen (a gross photo, a scanned request form). */
export interface SpecimenFile {
  barcode: string;
  /** Where it is kept: the screen's resource and title, the record and the field. */
  resource: string;
  source: string;
  recordId: number;
  field: string;
  label: string;
  kind: FileKind;
  mimeType: string;
  /** Size of the file itself, in bytes. */
  size: number;
  /** The file as a data URL (as the screens keep it), when asked for. */
  dataUrl?: string;
}

/** The screens that keep files about a specimen: a barcode field beside image or file fields. */
function specimenScreens(screens: ScreenSchema[], roles: readonly string[], kind: FileKind | undefined) {
  return screens.flatMap((screen) => {
    const fields = screen.fields.filter((f) => (f.type === 'image' || f.type === 'file') && (!kind || f.type === kind));
    const keyed = screen.fields.some((f) => f.key === 'barcode');
    return keyed && fields.length > 0 && screenAllows(screen, 'read', roles) ? [{ screen, fields }] : [];
  });
}

const DATA_URL = /^data:([^;,]*)((?:;[^;,]*)*),/;

/** Bytes of a data URL's content, from its base64 (or percent-encoded) text. */
function sizeOf(dataUrl: string, header: string): number {
  const body = dataUrl.slice(header.length);
  if (header.includes(';base64'))
    return Math.floor((body.length * 3) / 4) - (body.endsWith('==') ? 2 : body.endsWith('=') ? 1 : 0);
  return decodeURIComponent(body).length;
}

/**
 * Files kept about some specimens (spec 7.2 getImgs, getFiles, getSpecimenFileList), found by barcode
 * in every screen that keeps images or files beside a barcode (the generic resource stores a file as a
 * data URL in its record). Only screens the caller may read, only the caller's organisation.
 */
export async function specimenFiles(
  screens: ScreenSchema[],
  records: RecordStore,
  db: Queryable,
  actor: AuthUser,
  barcodes: string[],
  options: { kind?: FileKind; withData: boolean; locale: Locale },
): Promise<SpecimenFile[]> {
  if (barcodes.length === 0) return [];
  const found: SpecimenFile[] = [];
  for (const { screen, fields } of specimenScreens(screens, actor.roles, options.kind)) {
    const rows = await records.findIn(db, screen, actor.orgId, { barcode: barcodes });
    for (const row of rows) {
      for (const field of fields) {
        const value = row.data[field.key];
        const header = typeof value === 'string' ? DATA_URL.exec(value)?.[0] : undefined;
        if (typeof value !== 'string' || !header) continue;
        found.push({
          barcode: String(row.data.barcode),
          resource: screen.resource.name,
          source: screen.title[options.locale],
          recordId: row.id,
          field: field.key,
          label: field.label[options.locale],
          kind: field.type as FileKind,
          mimeType: DATA_URL.exec(value)?.[1] || 'application/octet-stream',
          size: sizeOf(value, header),
          ...(options.withData && { dataUrl: value }),
        });
      }
    }
  }
  return found;
}
