import type { Staff } from './api.js';
import { PANELS, QC, type PanelName } from './catalogue.js';

/**
 * The lab's own records the generated month refers to, read (and, for QC plans it lacks, made)
 * through the API: hospitals, panels, tubes, a rejection reason, the QC plans and conclusions.
 */
export interface LabRefs {
  hospitals: number[];
  /** Their names, in the same order: where a courier's box is sealed. */
  hospitalNames: string[];
  purposes: Record<PanelName, number>;
  specimenTypes: Record<'全血' | '血清', number>;
  rejectReasons: number[];
  /** Per QC spec (catalogue.ts): the plan and its lot's target. */
  qc: { plan: number; material: number; mean: number; sd: number }[];
  /** The conclusion given to the violation: corrective action taken, results held until the rerun. */
  outOfControl: number;
}

type Rec = { id: number; name?: string; code?: string } & Record<string, unknown>;
type Page = { records: Rec[] };

const list = async (admin: Staff, resource: string, query = '') =>
  (await admin.get<Page>(`/api/resources/${resource}?size=1000${query}`)).records;

async function byName(admin: Staff, resource: string, name: string): Promise<Rec | undefined> {
  return (await list(admin, resource, `&name=${encodeURIComponent(name)}`)).find((r) => r.name === name);
}

async function required(admin: Staff, resource: string, name: string): Promise<number> {
  const found = await byName(admin, resource, name);
  if (!found) throw new Error(`the lab has no ${resource} named ${name}: the demo month needs the demo catalogue`);
  return found.id;
}

/** A QC plan of the catalogue, with its material: the lab's if it has them, else made as a lab would. */
async function qcPlanOf(admin: Staff, spec: (typeof QC)[number], westgard: number) {
  const material =
    (await byName(admin, 'qcMaterial', spec.material)) ??
    (await admin.post<Rec>('/api/resources/qcMaterial', {
      name: spec.material,
      manufacturer: spec.material.startsWith('迈瑞') ? 'Mindray' : 'Bio-Rad',
      lotNo: `D${spec.itemCode}01`,
      itemCode: spec.itemCode,
      level: spec.level,
      targetMean: spec.mean,
      targetSd: spec.sd,
      receivedDate: '2020-01-01',
      expiryDate: '2099-12-31',
      enabled: true,
    }));
  const plan =
    (await byName(admin, 'qcPlan', spec.plan)) ??
    (await admin.post<Rec>('/api/resources/qcPlan', {
      name: spec.plan,
      material: material.id,
      ruleCombination: westgard,
      instrument: spec.instrument,
      professionalGroup: spec.group,
      frequency: 'daily',
      startDate: '2020-01-01',
      enabled: true,
    }));
  return {
    plan: plan.id,
    material: material.id,
    mean: Number(material.targetMean ?? spec.mean),
    sd: Number(material.targetSd ?? spec.sd),
  };
}

export async function labRefsOf(admin: Staff): Promise<LabRefs> {
  const sent = (await list(admin, 'referralHospital')).sort((a, b) => a.id - b.id);
  const hospitals = sent.map((h) => h.id);
  if (hospitals.length === 0) throw new Error('the lab has no referral hospitals to receive specimens from');
  const purposes = {} as Record<PanelName, number>;
  for (const panel of Object.keys(PANELS) as PanelName[])
    purposes[panel] = await required(admin, 'inspectionPurpose', panel);
  const reasons = await list(admin, 'abnormalSampleType');
  if (!reasons[0]) throw new Error('the lab has no reasons to reject a specimen (abnormalSampleType)');
  const westgard = (await list(admin, 'qcRuleCombination')).find((c) => String(c.name).startsWith('Westgard'));
  if (!westgard) throw new Error('the lab has no Westgard rule combination');
  const qc = [];
  for (const spec of QC) qc.push(await qcPlanOf(admin, spec, westgard.id));
  const conclusions = await list(admin, 'qcConclusion');
  const outOfControl = conclusions.find((c) => c.conclusionType === 'reject' && c.releasesResults === true);
  if (!outOfControl) throw new Error('the lab has no QC conclusions');
  return {
    hospitals,
    hospitalNames: sent.map((h) => String(h.name ?? h.id)),
    purposes,
    specimenTypes: {
      全血: await required(admin, 'specimenType', '全血'),
      血清: await required(admin, 'specimenType', '血清'),
    },
    rejectReasons: reasons.map((r) => r.id),
    qc,
    outOfControl: outOfControl.id,
  };
}
