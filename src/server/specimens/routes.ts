import type { FastifyInstance } from 'fastify';
import type { Locale } from '../../shared/i18n/messages.js';
import { optionLabel } from '../../shared/screens/fields.js';
import type { Kernel } from '../kernel/context.js';
import { notFound, ok } from '../kernel/http/envelope.js';
import { callerOf } from '../kernel/http/request.js';
import { logLabelPrints } from '../kernel/resources/labels.js';
import { sendPdf } from '../kernel/resources/routes.js';
import { idList } from '../kernel/publicData/ids.js';
import type { ApiRecord } from '../kernel/resources/records.js';
import { specimenCharacterRoutes } from './characterCalls.js';
import { barcodePng, labelsPdf, type LabelData } from '../kernel/print/labels.js';
import { labToday } from '../kernel/labConfig/timeZone.js';

const SPECIMEN = 'specimen';
const MAX_LABELS = 500;

const TITLE: Record<Locale, string> = { 'zh-CN': '标本标签', 'en-US': 'Specimen labels' };

/** The specimens' own calls: labels (PDF for the printer, PNG of one barcode), and the scan lookup. */
export async function specimenRoutes(app: FastifyInstance, kernel: Kernel) {
  await specimenCharacterRoutes(app, kernel);

  /** Labels of one or more specimens, one per page of 50 × 30 mm stock; each print is logged. */
  app.get<{ Querystring: { ids?: string } }>('/api/specimens/labels', async (request, reply) => {
    const caller = callerOf(request);
    const ids = idList(request.query.ids).slice(0, MAX_LABELS);
    if (ids.length === 0) throw notFound();
    const specimens = await Promise.all(
      ids.map((id) => kernel.resources.get(caller, SPECIMEN, id) as Promise<ApiRecord>),
    );
    const pdf = await labelsPdf(
      specimens.map((s) => labelOf(kernel, s, caller.locale)),
      caller.locale,
      TITLE[caller.locale],
    );
    await logLabelPrints(kernel, caller, SPECIMEN, specimens);
    return sendPdf(reply, pdf, `${TITLE[caller.locale]}_${labToday(kernel, caller.actor)}.pdf`);
  });

  /** One specimen's barcode as a PNG image (what the label prints), for a label printer's own software. */
  app.get<{ Params: { id: string } }>('/api/specimens/:id/barcode.png', async (request, reply) => {
    const specimen = (await kernel.resources.get(
      callerOf(request),
      SPECIMEN,
      Number(request.params.id) || 0,
    )) as ApiRecord;
    return reply.header('Content-Type', 'image/png').send(await barcodePng(String(specimen.barcode)));
  });

  /** The specimen a scanner read, with what was ordered: the bench's scan-to-receive looks it up here. */
  app.get<{ Querystring: { barcode?: string } }>('/api/specimens/scan', async (request) => {
    const caller = callerOf(request);
    const barcode = String(request.query.barcode ?? '').trim();
    const [found] = barcode
      ? await kernel.records.find(kernel.db, SPECIMEN, caller.actor.orgId, { barcode: [barcode] })
      : [];
    if (!found) throw notFound();
    return ok(await kernel.resources.get(caller, SPECIMEN, found.id));
  });
}

function labelOf(kernel: Kernel, s: ApiRecord, locale: Locale): LabelData {
  const owner = kernel.screens.owner(SPECIMEN);
  const sex = optionLabel(
    owner?.fields.find((f) => f.key === 'sex'),
    s.sex,
    locale,
  );
  const title = (key: string) => {
    const label = s.labels?.[key];
    return Array.isArray(label) ? label.join(',') : label;
  };
  return {
    barcode: String(s.barcode),
    patientName: typeof s.patientName === 'string' ? s.patientName : undefined,
    sexAge: [sex, typeof s.age === 'number' ? `${s.age}${locale === 'en-US' ? 'y' : '岁'}` : undefined]
      .filter(Boolean)
      .join(' '),
    specimenType: title('specimenType'),
    hospital: title('hospital'),
    collectedAt: typeof s.collectedAt === 'string' ? s.collectedAt : undefined,
    urgent: s.urgent === true,
  };
}
