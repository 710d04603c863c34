import { localDateTime } from '../../shared/time.js';
import type { LabClock } from '../kernel/clock.js';
import type { Staff } from './api.js';
import { ITEMS, itemCodeOf, reported } from './catalogue.js';
import type { LabRefs } from './labSetup.js';
import type { DayPlan, PlannedQcRun, PlannedSpecimen } from './plan.js';
import type { Crew } from './staff.js';
import { byCourier, courierBoxes, type CourierBox } from './handovers.js';
import { WorkList, type OpenTask } from './tasks.js';

/**
 * A planned day done through the API, step by step in the order of its times, each at its time on the
 * lab clock: registrations (with their labels printed), collections, receipts and rejections, the QC runs, the instruments'
 * uploads, critical values acknowledged, first reviews and audits (the reports follow by themselves),
 * and the odd report corrected. Specimens of the courier runs come in by handover, confirmed at the
 * receiving group; the general inspection flow's tasks are worked from the work list as the tubes
 * are tested and their results audited.
 */
type Rec = { id: number } & Record<string, unknown>;
type Page = { records: Rec[] };

/**
 * Specimens whose results an approver signs in one call: a screenful, as a person would. An audit
 * issues every report it completes inside its transaction, which on the embedded database holds up
 * everyone else's requests until it commits: a month's round of a hundred specimens would take seconds.
 */
const SIGNED_AT_ONCE = 4;
/** In bulk mode no person waits behind the generator: an approver signs a tray at a time. */
const SIGNED_AT_ONCE_IN_BULK = 50;

/** Results in batches of the results of up to `size` specimens, a specimen's results never split. */
export function bySpecimens(results: Rec[], size: number): Rec[][] {
  const of = new Map<string, Rec[]>();
  for (const r of results) of.set(String(r.barcode), [...(of.get(String(r.barcode)) ?? []), r]);
  const groups = [...of.values()];
  const batches: Rec[][] = [];
  for (let i = 0; i < groups.length; i += size) batches.push(groups.slice(i, i + size).flat());
  return batches;
}

interface Step {
  at: Date;
  run: () => Promise<void>;
  /** A desk step of one specimen that bulk mode may take for several at once (one call, all or none). */
  desk?: { name: 'collect' | 'receive'; specimen: PlannedSpecimen };
}

export interface DayTally {
  specimens: number;
  rejected: number;
  results: number;
  /** Results a round could not approve (left for the lab to look at), never silently dropped. */
  refused: number;
  /** What the app said of them (each different message once). */
  reasons: Set<string>;
  /** Courier boxes handed over and confirmed at the receiving group. */
  handovers: number;
  /** Workflow tasks claimed and completed. */
  tasks: number;
}

export class LabDay {
  private readonly received: PlannedSpecimen[] = [];
  private readonly ids = new Map<string, number>();
  private readonly barcodes = new Map<string, PlannedSpecimen>();
  private readonly barcodeByKey = new Map<string, string>();
  /** Received specimens whose receipt and testing tasks are still to be worked, by barcode. */
  private readonly atBench = new Set<string>();
  private readonly workList = new WorkList();
  readonly tally: DayTally = {
    specimens: 0,
    rejected: 0,
    results: 0,
    refused: 0,
    reasons: new Set(),
    handovers: 0,
    tasks: 0,
  };

  constructor(
    private readonly clock: LabClock,
    private readonly crew: Crew,
    private readonly refs: LabRefs,
    private readonly password: string,
    private readonly watch: {
      onSpecimen?: () => void;
      signal?: AbortSignal;
      /** The last day before today: some audits' tasks are left on the work list for the lab to finish. */
      leaveOpen?: boolean;
      /**
       * Bulk mode (a big stretch for the benchmarks, no one at work meanwhile): tasks of a round completed
       * together (批量办理) rather than claimed and completed one by one, tubes that follow one another at
       * the desk collected or received in one call (deskRounds), results signed a tray at a time. The
       * same calls of the same services, fewer of them.
       */
      bulk?: boolean;
    } = {},
  ) {}

  async run(plan: DayPlan): Promise<DayTally> {
    const steps: Step[] = [
      ...plan.specimens.flatMap((s) => this.specimenSteps(s)),
      ...labelRuns(plan.specimens).map((run) => ({ at: run.at, run: () => this.printLabels(run.specimens) })),
      ...courierBoxes(plan.specimens).flatMap((box) => this.boxSteps(box)),
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
    for (const step of this.watch.bulk ? this.deskRounds(steps) : steps) {
      this.watch.signal?.throwIfAborted();
      await this.clock.at(step.at, step.run);
    }
    return this.tally;
  }

  private specimenSteps(s: PlannedSpecimen): Step[] {
    const steps: Step[] = [
      { at: s.registeredAt, run: () => this.register(s) },
      { at: s.collectedAt, run: () => this.deskStep([s], 'collect'), desk: { name: 'collect', specimen: s } },
    ];
    // A courier's specimen is received with its box (boxSteps).
    if (byCourier(s)) return steps;
    if (s.rejected) return [...steps, { at: s.receivedAt, run: () => this.reject(s) }];
    const receive = () => this.deskStep([s], 'receive');
    return [...steps, { at: s.receivedAt, run: receive, desk: { name: 'receive', specimen: s } }];
  }

  /** Tubes collected or received at the desk: one by one as people do, several in one call in bulk mode. */
  private async deskStep(specimens: PlannedSpecimen[], name: 'collect' | 'receive') {
    if (specimens.length === 1) await this.step(specimens[0]!, name);
    else
      await this.crew.desk.post(`/api/resources/specimen/transitions/${name}`, {
        ids: specimens.map((s) => this.ids.get(s.key)),
      });
    if (name === 'receive') this.arrived(specimens);
  }

  /**
   * Bulk mode: desk steps of the same kind that follow one another, nothing else between them, taken
   * together at the last one's time. Each tube waits at most until then, and no other step moves
   * past it, so every step still comes after what it needs.
   */
  private deskRounds(steps: Step[]): Step[] {
    const rounds: Step[] = [];
    for (let i = 0; i < steps.length;) {
      const first = steps[i]!;
      let end = i + 1;
      while (first.desk && steps[end]?.desk?.name === first.desk.name) end++;
      const round = steps.slice(i, end);
      rounds.push(
        round.length === 1
          ? first
          : {
              at: round[round.length - 1]!.at,
              run: () =>
                this.deskStep(
                  round.map((r) => r.desk!.specimen),
                  first.desk!.name,
                ),
            },
      );
      i = end;
    }
    return rounds;
  }

  private arrived(specimens: PlannedSpecimen[]) {
    for (const s of specimens) {
      this.received.push(s);
      this.atBench.add(this.barcodeOf(s));
    }
  }

  private barcodeOf(s: PlannedSpecimen): string {
    return this.barcodeByKey.get(s.key)!;
  }

  /**
   * A courier box: sealed at the hospital's collection point by the front desk (a handover of its
   * tubes, which puts them in transit), confirmed on arrival by the group's tester with their password.
   */
  private boxSteps(box: CourierBox): Step[] {
    let id = 0;
    const send = async () => {
      const made = await this.crew.desk.post<Rec>('/api/resources/handoverRecord', {
        fromSite: this.refs.hospitalNames[box.hospital % this.refs.hospitalNames.length],
        toGroup: box.toGroup,
        storage: box.storage,
        barcodes: box.specimens.map((s) => this.barcodeOf(s)).join('\n'),
      });
      id = made.id;
    };
    const confirm = async () => {
      await this.crew.tester.post(`/api/handover/confirmReceive?recordId=${id}`, {
        userAccount: this.crew.tester.account,
        passwd: this.password,
        temperatureC: box.storage === 'cold' ? 4 : 21,
      });
      this.tally.handovers++;
      this.arrived(box.specimens);
    };
    return [
      { at: box.sentAt, run: send },
      { at: box.receivedAt, run: confirm },
    ];
  }

  /** The tubes that arrived since the last round: their receipt and testing tasks worked from the work list. */
  private async bench() {
    if (this.atBench.size === 0) return;
    const barcodes = new Set(this.atBench);
    this.atBench.clear();
    await this.work(this.crew.desk, await this.workList.open(this.crew.desk, '标本接收', barcodes));
    const testing = await this.workList.open(this.crew.tester, '上机检验', barcodes);
    await this.work(this.crew.tester, testing, (task) => ({
      instrumentName: instrumentOf(this.barcodes.get(String(task.businessKey))!),
    }));
  }

  /** Tasks of one step worked from the work list: one by one as a person does, or together in bulk mode. */
  private async work(
    who: Staff,
    tasks: OpenTask[],
    valuesOf: (task: OpenTask) => Record<string, string> = () => ({}),
    result?: 'pass',
  ) {
    if (this.watch.bulk) await this.workList.workMany(who, tasks, valuesOf, result);
    else for (const task of tasks) await this.workList.work(who, task, valuesOf(task), result);
    this.tally.tasks += tasks.length;
  }

  /** The audit tasks of specimens whose results were just signed; on the last day some are left for the lab. */
  private async auditTasks(barcodes: Set<string>, who: Staff) {
    const kept = (b: string) =>
      this.watch.leaveOpen === true && Number(this.barcodes.get(b)!.key.split('-')[1]) % 8 === 0;
    const tasks = (await this.workList.open(who, '审核', barcodes)).filter((t) => !kept(String(t.businessKey)));
    await this.work(who, tasks, () => ({ auditNote: '结果与临床相符，同意发布' }), 'pass');
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
    this.barcodes.set(String(made.barcode), s);
    this.barcodeByKey.set(s.key, String(made.barcode));
    this.tally.specimens++;
    this.watch.onSpecimen?.();
  }

  /** The tubes' barcode labels, printed by the one who registered them in one go, before any is collected. */
  private async printLabels(specimens: PlannedSpecimen[]) {
    const who = specimens[0]!.entry === 'special' ? this.crew.clerk : this.crew.desk;
    await who.file(`/api/specimens/labels?ids=${specimens.map((s) => this.ids.get(s.key)).join(',')}`);
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
    await this.bench();
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
   * first, then every result waiting signed, a screenful of specimens at a time; should a batch be
   * refused (a QC hold, a rule), each of its results is tried alone and those refused are left
   * waiting, counted.
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
    for (const batch of bySpecimens(waiting, this.watch.bulk ? SIGNED_AT_ONCE_IN_BULK : SIGNED_AT_ONCE))
      try {
        await sign(batch.map((r) => r.id));
      } catch {
        for (const r of batch)
          await sign([r.id]).catch((e: unknown) => {
            this.tally.refused++;
            this.tally.reasons.add(e instanceof Error ? e.message : String(e));
          });
      }
    if (step === 'audit') await this.auditTasks(new Set(waiting.map((r) => String(r.barcode))), who);
  }

  private qcSteps(run: PlannedQcRun): Step[] {
    const target = this.refs.qc[run.qc]!;
    const record = async () => {
      const { mean, sd } = await this.controlTarget(target, run.runAt);
      const value = Number((mean + run.z * sd).toFixed(4));
      const made = await this.crew.tester.post<Rec>('/api/resources/qcResult', {
        plan: target.plan,
        runAt: localDateTime(run.runAt),
        runNo: `${localDateTime(run.runAt).slice(0, 10).replaceAll('-', '')}-${run.runAt.getHours() < 12 ? 1 : 2}`,
        value,
      });
      if (run.violation) await this.conclude(made.id);
    };
    return [{ at: run.runAt, run: record }];
  }

  /**
   * The target the lab judges a run of the control against: the one typed from the insert sheet until
   * the lot has established its own from its first runs (qc/evaluation.ts), that one after. The planned
   * z-scores are meant against the target in use, or a lot's own narrower spread would turn the calm
   * month into a streak of rejections.
   */
  private async controlTarget(target: LabRefs['qc'][number], runAt: Date): Promise<{ mean: number; sd: number }> {
    const lot = await this.crew.tester.get<Rec>(`/api/resources/qcMaterial/${target.material}`);
    const own = typeof lot.establishedMean === 'number' && typeof lot.establishedSd === 'number';
    return own && localDateTime(runAt) > String(lot.establishedTo)
      ? { mean: Number(lot.establishedMean), sd: Number(lot.establishedSd) }
      : target;
  }

  /** The violation's conclusion: recalibrated, the control rerun in control, results released. */
  private async conclude(id: number) {
    const run = await this.crew.tester.get<Rec>(`/api/resources/qcResult/${id}`);
    await this.crew.tester.put(`/api/resources/qcResult/${id}`, { ...run, conclusion: this.refs.outOfControl });
  }

  /** The planned corrections: a reported specimen's report invalidated (a typing error) and reissued. */
  private async correct(specimens: PlannedSpecimen[]) {
    for (const s of specimens.filter((x) => x.corrected && !x.rejected)) {
      const barcode = this.barcodeByKey.get(s.key);
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

/** The analyser a panel's tube goes on, as the tester writes it on the testing form. */
function instrumentOf(s: PlannedSpecimen): string {
  return s.panels[0] === '血常规' ? '迈瑞 BC-6800' : s.panels[0] === '甲状腺功能' ? '罗氏 cobas e601' : '贝克曼 AU5800';
}

/**
 * The label printer's runs: a clerk registering a queue of requests prints their labels together once
 * the last is entered, within ten minutes of the first and before the first tube is drawn.
 */
export function labelRuns(specimens: PlannedSpecimen[]): { at: Date; specimens: PlannedSpecimen[] }[] {
  const runs: { at: Date; specimens: PlannedSpecimen[]; deadline: number }[] = [];
  const open = new Map<PlannedSpecimen['entry'], (typeof runs)[number]>();
  for (const s of [...specimens].sort((a, b) => a.registeredAt.getTime() - b.registeredAt.getTime())) {
    const run = open.get(s.entry);
    const t = s.registeredAt.getTime();
    if (run && t <= run.deadline) {
      run.specimens.push(s);
      run.at = s.registeredAt;
      run.deadline = Math.min(run.deadline, s.collectedAt.getTime() - 60_000);
      continue;
    }
    const next = {
      at: s.registeredAt,
      specimens: [s],
      deadline: Math.min(t + 10 * 60_000, s.collectedAt.getTime() - 60_000),
    };
    runs.push(next);
    open.set(s.entry, next);
  }
  return runs.map(({ at, specimens: tubes }) => ({ at, specimens: tubes }));
}
