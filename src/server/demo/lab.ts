import { localDateTime } from '../../shared/time.js';
import type { LabClock } from '../kernel/clock.js';
import type { Staff } from './api.js';
import { ITEMS, itemCodeOf, reported } from './catalogue.js';
import type { LabRefs } from './labSetup.js';
import type { DayPlan, PlannedQcRun, PlannedSpecimen } from './plan.js';
import type { Crew } from './staff.js';

/**
 * A planned day done through the API, step by step in the order of its times, each at its time on the
 * lab clock: registrations (with their labels printed), collections, receipts and rejections, the QC runs, the instruments'
 * uploads, critical values acknowledged, first reviews and audits (the reports follow by themselves),
 * and the odd report corrected.
 */
type Rec = { id: number } & Record<string, unknown>;
type Page = { records: Rec[] };

interface Step {
  at: Date;
  run: () => Promise<void>;
}

export interface DayTally {
  specimens: number;
  rejected: number;
  results: number;
  /** Results a round could not approve (left for the lab to look at), never silently dropped. */
  refused: number;
  /** What the app said of them (each different message once). */
  reasons: Set<string>;
}

export class LabDay {
  private readonly received: PlannedSpecimen[] = [];
  private readonly ids = new Map<string, number>();
  private readonly barcodes = new Map<string, PlannedSpecimen>();
  readonly tally: DayTally = { specimens: 0, rejected: 0, results: 0, refused: 0, reasons: new Set() };

  constructor(
    private readonly clock: LabClock,
    private readonly crew: Crew,
    private readonly refs: LabRefs,
    private readonly password: string,
    private readonly watch: { onSpecimen?: () => void; signal?: AbortSignal } = {},
  ) {}

  async run(plan: DayPlan): Promise<DayTally> {
    const steps: Step[] = [
      ...plan.specimens.flatMap((s) => this.specimenSteps(s)),
      ...plan.qcRuns.flatMap((r) => this.qcSteps(r)),
      ...plan.uploads.map((at) => ({ at, run: () => this.upload() })),
      ...plan.reviews.map((at, i) => ({
        at,
        run: () => this.approve('firstReview', 'tested', this.crew.reviewers[i % 2]!),
      })),
      ...plan.audits.map((at, i) => ({
        at,
        run: () => this.approve('audit', 'firstReviewed', this.crew.auditors[i % 2]!),
      })),
    ];
    const last = plan.audits[plan.audits.length - 1]!;
    steps.push({ at: new Date(last.getTime() + 10 * 60_000), run: () => this.correct(plan.specimens) });
    // Stable: steps of one minute keep the order above (a specimen's own steps are minutes apart anyway).
    steps.sort((a, b) => a.at.getTime() - b.at.getTime());
    for (const step of steps) {
      this.watch.signal?.throwIfAborted();
      await this.clock.at(step.at, step.run);
    }
    return this.tally;
  }

  private specimenSteps(s: PlannedSpecimen): Step[] {
    return [
      { at: s.registeredAt, run: () => this.register(s) },
      { at: s.collectedAt, run: () => this.step(s, 'collect') },
      {
        at: s.receivedAt,
        run: () =>
          s.rejected
            ? this.reject(s)
            : this.step(s, 'receive').then(() => {
                this.received.push(s);
              }),
      },
    ];
  }

  private async register(s: PlannedSpecimen) {
    const special = s.entry === 'special';
    const body = {
      patientName: s.patientName,
      sex: s.sex,
      age: s.age,
      hospital: this.refs.hospitals[s.hospital % this.refs.hospitals.length],
      purposes: s.panels.map((p) => this.refs.purposes[p]),
      specimenType: this.refs.specimenTypes[s.specimenType],
      collectedAt: localDateTime(s.collectedAt),
      ...(special && { entryReason: s.registeredAt.getHours() >= 17 ? 'emergency' : 'late' }),
    };
    const who = special ? this.crew.clerk : this.crew.desk;
    const made = await who.post<Rec>(`/api/resources/${special ? 'specialEntry' : 'specimen'}`, body);
    this.ids.set(s.key, made.id);
    // The tube's barcode label, printed at once for the collector.
    await who.file(`/api/specimens/labels?ids=${made.id}`);
    this.barcodes.set(String(made.barcode), s);
    this.tally.specimens++;
    this.watch.onSpecimen?.();
  }

  private async step(s: PlannedSpecimen, name: string, body: object = {}): Promise<void> {
    await this.crew.desk.post(`/api/resources/specimen/${this.ids.get(s.key)}/transitions/${name}`, body);
  }

  private async reject(s: PlannedSpecimen) {
    const reasons = this.refs.rejectReasons;
    await this.step(s, 'reject', { rejectReason: reasons[Number(s.key.split('-')[1]) % reasons.length] });
    this.tally.rejected++;
  }

  /** Results of the lab's state, every page of them (a day of a big lab has more than a page). */
  private async resultsIn(status: string): Promise<Rec[]> {
    const all: Rec[] = [];
    for (let page = 1; ; page++) {
      const { records } = await this.crew.admin.get<Page>(
        `/api/resources/inspectionResult?status=${status}&size=1000&page=${page}`,
      );
      all.push(...records);
      if (records.length < 1000) return all;
    }
  }

  /** The instruments' values of the specimens received since the last upload, saved by the tester. */
  private async upload() {
    if (this.received.length === 0) return;
    this.received.length = 0;
    const rows = [];
    for (const r of await this.resultsIn('pending')) {
      const s = this.barcodes.get(String(r.barcode));
      const code = s && itemCodeOf(r);
      const value = code ? s.values[code] : undefined;
      if (value !== undefined && code) rows.push({ id: r.id, result: reported(value, ITEMS[code]!.decimals) });
    }
    if (rows.length === 0) return;
    await this.crew.tester.post('/api/results/worksheet', { rows });
    this.tally.results += rows.length;
  }

  /**
   * A round of first review or audit: critical values the tester has phoned through acknowledged
   * first, then every result waiting signed in one go; should the batch be refused (a QC hold, a rule),
   * each is tried alone and those refused are left waiting, counted.
   */
  private async approve(step: 'firstReview' | 'audit', status: string, who: Staff) {
    const waiting = (await this.resultsIn(status)).filter((r) => this.barcodes.has(String(r.barcode)));
    if (waiting.length === 0) return;
    for (const r of waiting)
      if (r.critical === true && !r.criticalAckAt)
        await this.crew.tester.post(`/api/resources/inspectionResult/${r.id}/transitions/acknowledge`, {
          criticalNotified: `已电话通知病房护士，${String(r.patientName ?? '')}`,
        });
    const sign = (ids: number[]) => who.post(`/api/results/approve/${step}`, { ids, password: this.password });
    try {
      await sign(waiting.map((r) => r.id));
    } catch {
      for (const r of waiting)
        await sign([r.id]).catch((e: unknown) => {
          this.tally.refused++;
          this.tally.reasons.add(e instanceof Error ? e.message : String(e));
        });
    }
  }

  private qcSteps(run: PlannedQcRun): Step[] {
    const target = this.refs.qc[run.qc]!;
    const value = Number((target.mean + run.z * target.sd).toFixed(4));
    const record = async () => {
      const made = await this.crew.tester.post<Rec>('/api/resources/qcResult', {
        plan: target.plan,
        runAt: localDateTime(run.runAt),
        runNo: `${localDateTime(run.runAt).slice(0, 10).replaceAll('-', '')}-${run.runAt.getHours() < 12 ? 1 : 2}`,
        value,
        operator: '何静',
      });
      if (run.violation) await this.conclude(made.id);
    };
    return [{ at: run.runAt, run: record }];
  }

  /** The violation's conclusion: recalibrated, the control rerun in control, results released. */
  private async conclude(id: number) {
    const run = await this.crew.tester.get<Rec>(`/api/resources/qcResult/${id}`);
    await this.crew.tester.put(`/api/resources/qcResult/${id}`, { ...run, conclusion: this.refs.outOfControl });
  }

  /** The planned corrections: a reported specimen's report invalidated (a typing error) and reissued. */
  private async correct(specimens: PlannedSpecimen[]) {
    for (const s of specimens.filter((x) => x.corrected && !x.rejected)) {
      const barcode = [...this.barcodes].find(([, p]) => p === s)?.[0];
      if (!barcode) continue;
      const [report] = (await this.crew.admin.get<Page>(`/api/resources/reportRecord?barcode=${barcode}`)).records;
      if (!report || report.status !== 'published') continue;
      await this.crew.admin.post(`/api/resources/reportRecord/${report.id}/transitions/invalidate`, {
        invalidReason: '病区反馈患者年龄录入错误',
      });
      await this.crew.admin.post(`/api/reports/${report.id}/reissue`);
    }
  }
}
