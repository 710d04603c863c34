import type { Dashboard, DashboardSection } from '../../../shared/dashboard/types.js';
import type { FieldDef } from '../../../shared/screens/fields.js';
import { DASHBOARD_TOPIC } from '../../../shared/dashboard/types.js';
import { screenAllows } from '../../../shared/screens/access.js';
import type { Queryable } from '../db/database.js';
import { localDateTime } from '../../../shared/time.js';
import type { AuthUser } from '../identity/actor.js';
import type { HookRegistration } from '../resources/hooks.js';
import type { ScreenRegistry } from '../screens/registry.js';
import type { PushHub } from '../push/hub.js';
import type { GroupScope } from './scope.js';

/**
 * The dashboard of the signed-in user (issue 24): each capability that has something to count adds a
 * part (Capability.dashboard); the kernel asks every part for the user's day, drops the links to lists
 * the user may not open, and answers the sections in order. A write to a resource a part watches tells
 * the organisation's open dashboards, through the push channel, to ask again.
 */
export interface DashboardQuery {
  db: Queryable;
  actor: AuthUser;
  /** The lab's day in its time zone (YYYY-MM-DD). */
  day: { date: string };
  /** The professional groups the user works in; absent, the whole lab is theirs to see. */
  scope?: GroupScope;
}

export interface DashboardPart {
  /** Resources whose writes change this part's counts. */
  watches: readonly string[];
  section(query: DashboardQuery): Promise<DashboardSection | undefined>;
}

/** The lab's day around a moment: its date in the lab's time zone. */
export function labDay(now: Date, timeZone: string): DashboardQuery['day'] {
  return { date: localDateTime(now, timeZone).slice(0, 10) };
}

export async function dashboardOf(
  parts: readonly DashboardPart[],
  screens: ScreenRegistry,
  query: DashboardQuery,
): Promise<Dashboard> {
  const answered = await Promise.all(parts.map((part) => part.section(query)));
  const sections = answered
    .filter((s): s is DashboardSection => s !== undefined)
    .map((section) => ({ ...section, tiles: section.tiles.map((tile) => withRoute(tile, screens, query.actor)) }))
    .sort((a, b) => a.order - b.order);
  return { day: query.day.date, sections };
}

/** A link to a list the user may read carries its menu route; one to a list closed to them is left off. */
function withRoute<T extends DashboardSection['tiles'][number]>(tile: T, screens: ScreenRegistry, actor: AuthUser): T {
  if (!tile.link) return tile;
  const screen = screens.get(tile.link.screen);
  if (!screen || !screenAllows(screen, 'read', actor.roles)) return { ...tile, link: undefined };
  return { ...tile, link: { ...tile.link, menuId: screen.menuId } };
}

/** After a committed write to a watched resource, the organisation's open dashboards hear that counts changed. */
export function dashboardNews(parts: readonly DashboardPart[], push: () => PushHub): HookRegistration[] {
  const watched = [...new Set(parts.flatMap((p) => p.watches))];
  return watched.map((resource) => ({
    resource,
    // After the rules that react to the stored row (a specimen's process starts at 900): their work is counted too.
    order: 1000,
    hooks: {
      async afterWrite(ctx, row) {
        ctx.afterCommit(() => tellDashboards(push(), row.orgId));
      },
    },
  }));
}

/** The news itself: no counts, only which organisation's dashboards should ask again. */
export function tellDashboards(push: PushHub, orgId: number): Promise<void> {
  return push.tellOrganization({ orgId, news: { topic: DASHBOARD_TOPIC, orgId } });
}

/** How a part turns counts by an enum field's values into tiles, in the field's option order. */
export interface StateTiles {
  /** Tile keys are `${prefix}.${value}`. */
  prefix: string;
  /** The screen whose list a tile opens, filtered by the field's value (and `query`). */
  screen: string;
  /** Values shown even at 0 (a quiet morning reads 0, not an empty card); others only when counted. */
  always: readonly string[];
  tones?: Partial<Record<string, DashboardSection['tiles'][number]['tone']>>;
  query?: Record<string, string>;
}

export function stateTiles(
  field: FieldDef | undefined,
  counts: ReadonlyMap<string, number>,
  how: StateTiles,
): DashboardSection['tiles'] {
  return (field?.options ?? [])
    .map((option) => String(option.value))
    .filter((value) => how.always.includes(value) || (counts.get(value) ?? 0) > 0)
    .map((value) => ({
      key: `${how.prefix}.${value}`,
      label: field!.options!.find((o) => String(o.value) === value)!.label,
      count: counts.get(value) ?? 0,
      tone: how.tones?.[value] ?? 'normal',
      link: { screen: how.screen, query: { ...how.query, [field!.key]: value } },
    }));
}

/**
 * How many of an organisation's records of a resource hold each value of one field, for a part's
 * count (the records' table is the kernel's: the parts say what they count, never how it is stored).
 */
export interface RecordCount {
  resource: string;
  orgId: number;
  /** The field whose values are counted apart (its value as text; an empty field counts as "null"). */
  by: string;
  /** Only records whose date or time field falls on this day (YYYY-MM-DD). */
  dayOf?: { field: string; date: string };
  /** Only records whose field holds one of these values. */
  oneOf?: { field: string; values: readonly string[] };
  /** Only records whose field is empty. */
  empty?: string;
  /** Only records whose reference field (one id, or a list of ids) holds one of these ids. */
  refersTo?: { field: string; ids: readonly number[] };
}

export async function countRecords(db: Queryable, q: RecordCount): Promise<Map<string, number>> {
  const params: unknown[] = [q.resource, q.orgId, q.by];
  const where = ['resource = $1', 'org_id = $2'];
  const param = (value: unknown) => `$${params.push(value)}`;
  if (q.dayOf) where.push(`left(data->>${param(q.dayOf.field)}, 10) = ${param(q.dayOf.date)}`);
  if (q.oneOf) where.push(`data->>${param(q.oneOf.field)} = any(${param(q.oneOf.values)}::text[])`);
  if (q.empty) where.push(`coalesce(data->>${param(q.empty)}, '') = ''`);
  if (q.refersTo) {
    const field = param(q.refersTo.field);
    const ids = param(q.refersTo.ids.map(String));
    where.push(
      `(case jsonb_typeof(data->${field}) when 'array' then exists (select 1 from jsonb_array_elements_text(data->${field}) e where e = any(${ids}::text[]))
             else data->>${field} = any(${ids}::text[]) end)`,
    );
  }
  const rows = await db.query<{ value: string | null; n: number }>(
    `select data->>$3 as value, count(*)::int as n from resource_record where ${where.join(' and ')} group by 1`,
    params,
  );
  return new Map(rows.map((r) => [String(r.value), Number(r.n)]));
}
