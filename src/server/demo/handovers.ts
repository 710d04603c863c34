import type { PlannedSpecimen } from './plan.js';

/**
 * The courier runs of a day: specimens of the hospitals other than the lab's own wards come in boxes,
 * each box a handover from the collection point to the testing group, sealed after the last tube of the
 * box is drawn and confirmed at the group by its receiver with their own password when the box arrives.
 * Planned from the day's plan alone, so the same seed gives the same boxes.
 */
export interface CourierBox {
  /** Index into the lab's referral hospitals the box comes from. */
  hospital: number;
  toGroup: 'clin' | 'bio' | 'imm';
  storage: 'room' | 'cold';
  specimens: PlannedSpecimen[];
  sentAt: Date;
  receivedAt: Date;
}

const GROUP_OF: Record<string, CourierBox['toGroup']> = {
  血常规: 'clin',
  肝功能: 'bio',
  肾功能: 'bio',
  甲状腺功能: 'imm',
};

/** Sent by courier: front-desk specimens of every second hospital (the first one is the lab's own wards), never the rejected. */
export const byCourier = (s: PlannedSpecimen) => s.hospital % 2 === 1 && s.entry === 'frontDesk' && !s.rejected;

const MINUTE = 60_000;

/** One box per hospital, group and hour of arrival. */
export function courierBoxes(specimens: PlannedSpecimen[]): CourierBox[] {
  const boxes = new Map<string, PlannedSpecimen[]>();
  for (const s of specimens.filter(byCourier)) {
    const key = `${s.hospital}/${GROUP_OF[s.panels[0]!]}/${Math.floor(s.receivedAt.getTime() / (60 * MINUTE))}`;
    boxes.set(key, [...(boxes.get(key) ?? []), s]);
  }
  return [...boxes.values()].map((box) => {
    const first = box[0]!;
    const sentAt = new Date(Math.max(...box.map((s) => s.collectedAt.getTime())) + 5 * MINUTE);
    const arrived = Math.max(...box.map((s) => s.receivedAt.getTime()));
    return {
      hospital: first.hospital,
      toGroup: GROUP_OF[first.panels[0]!]!,
      storage: first.specimenType === '血清' ? 'cold' : 'room',
      specimens: box,
      sentAt,
      // At least a quarter of an hour on the road after the box is sealed.
      receivedAt: new Date(Math.max(arrived, sentAt.getTime() + 15 * MINUTE)),
    };
  });
}
