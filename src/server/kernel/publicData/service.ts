import { BASE_ORG_ID, hasRole } from '../../../shared/access/can.js';
import { t } from '../../../shared/i18n/messages.js';
import type { Database, Queryable } from '../db/database.js';
import type { Caller } from '../identity/actor.js';
import { getOrganization, type Organization } from '../identity/organizations.js';
import { badRequest, forbidden, InvalidRecord, notFound } from '../http/envelope.js';
import { appendLog } from '../audit/log.js';
import type { ScreenRegistry } from '../screens/registry.js';
import { recordStore, type PublicSource, type PublicStore } from './stores.js';

/**
 * Public data as an in-process service (spec 1, 7.4, 7.6): the base organisation distributes, a main
 * lab synchronises, a sub lab imports, a lab confirms the updates waiting on its copies. The generic
 * routes under /api/resources/{resource}/… and the spec's own names for these calls both answer
 * through it: one guard (administrators, never an only-lab), one set of copying rules, one log entry.
 */
export class PublicData {
  private readonly ownStores = new Map<string, PublicStore>();

  constructor(
    private readonly db: Database,
    private readonly screens: ScreenRegistry,
  ) {}

  /** A public resource whose records live in a table of its own names its store here. */
  useStore(resource: string, store: PublicStore): void {
    this.ownStores.set(resource, store);
  }

  /** The public-data store of a resource and the caller's organisation, refusing only-labs (spec 6) and non-admins. */
  private async guard(caller: Caller, resource: string): Promise<{ store: PublicStore; org: Organization }> {
    const screen = this.screens.byResource(resource);
    if (!screen || !screen.resource.publicData) throw notFound();
    const org = await getOrganization(this.db, caller.actor.orgId);
    if (!org || org.labType === 'only' || !hasRole(caller.actor, ['admin'])) throw forbidden();
    return { store: this.ownStores.get(resource) ?? recordStore(screen), org };
  }

  /** The base organisation's records, offered to a lab for import: one page, filtered like the screen's list. */
  async offered(
    caller: Caller,
    resource: string,
    filters: Record<string, string | undefined>,
    page: { page: number; size: number },
  ) {
    const { store } = await this.guard(caller, resource);
    return store.offered(this.db, filters, page);
  }

  /** The base organisation gives the chosen records to the chosen labs. */
  async distribute(caller: Caller, resource: string, ids: number[], orgIds: number[]): Promise<number> {
    const { store } = await this.guard(caller, resource);
    if (caller.actor.orgId !== BASE_ORG_ID) throw forbidden();
    const targets = orgIds.filter((id) => id !== BASE_ORG_ID);
    if (targets.length === 0) throw badRequest('publicData.noLab');
    const sources = await store.sources(this.db, ids);
    if (sources.length === 0) throw badRequest('publicData.noRows');
    return this.db.transaction(async (tx) => {
      let n = 0;
      for (const orgId of targets) {
        if (!(await getOrganization(tx, orgId))) throw notFound();
        n += await copyInto(tx, store, caller, orgId, sources);
      }
      return n;
    });
  }

  /** A main lab takes every public record. */
  async sync(caller: Caller, resource: string): Promise<number> {
    const { store, org } = await this.guard(caller, resource);
    if (org.labType !== 'main') throw forbidden();
    const sources = await store.sources(this.db);
    return this.db.transaction((tx) => copyInto(tx, store, caller, caller.actor.orgId, sources));
  }

  /** A lab takes the public records it chose. */
  async importPublic(caller: Caller, resource: string, ids: number[]): Promise<number> {
    const { store } = await this.guard(caller, resource);
    if (caller.actor.orgId === BASE_ORG_ID) throw forbidden();
    const sources = await store.sources(this.db, ids);
    if (sources.length === 0) throw badRequest('publicData.noRows');
    return this.db.transaction((tx) => copyInto(tx, store, caller, caller.actor.orgId, sources));
  }

  /** Takes the newer source into the lab's flagged copies (syncFlag 2 → 1). */
  async confirmUpdate(caller: Caller, resource: string, ids: number[]): Promise<number> {
    const { store } = await this.guard(caller, resource);
    const sourceIds = await store.waiting(this.db, caller.actor.orgId, ids);
    if (sourceIds.length === 0) throw badRequest('publicData.noRows');
    const sources = await store.sources(this.db, sourceIds);
    return this.db.transaction((tx) => copyInto(tx, store, caller, caller.actor.orgId, sources));
  }

  /**
   * The spec's sync calls (spec 7.4–7.6): syncFlag 2 confirms updates; otherwise a main lab
   * synchronises everything and any other lab imports the chosen ids.
   */
  async syncByLabType(caller: Caller, resource: string, ids: number[], syncFlag: unknown): Promise<number> {
    if (Number(syncFlag) === 2) return this.confirmUpdate(caller, resource, ids);
    const org = await getOrganization(this.db, caller.actor.orgId);
    return org?.labType === 'main' ? this.sync(caller, resource) : this.importPublic(caller, resource, ids);
  }
}

/**
 * Puts (or refreshes) a lab's copy of each source record; refuses the lot when a copy would break a rule,
 * naming the laboratory: a record the lab keeps under the same unique code is never duplicated silently.
 */
async function copyInto(db: Queryable, store: PublicStore, caller: Caller, orgId: number, sources: PublicSource[]) {
  const errors: { field: string; message: string }[] = [];
  const lab = (await getOrganization(db, orgId))?.name ?? String(orgId);
  const refresh: { copyId: number; source: PublicSource }[] = [];
  const fresh: PublicSource[] = [];
  for (const source of sources) {
    const copyId = (await store.copyOf(db, orgId, source.id)) ?? 0;
    const problems = await store.check(db, orgId, source, copyId, caller.locale);
    if (problems.length > 0) {
      const message = (p: { message: string }) =>
        t('publicData.labRefuses', caller.locale, { lab, message: p.message });
      errors.push(...problems.map((p) => ({ field: p.field, message: message(p) })));
      continue;
    }
    if (copyId) refresh.push({ copyId, source });
    else fresh.push(source);
  }
  if (errors.length > 0) throw new InvalidRecord(errors);
  await store.write(db, orgId, caller.actor.id, refresh, fresh);
  await appendLog(db, caller.actor, {
    resource: store.logResource,
    recordId: null,
    action: 'publicData',
    after: { orgId, sourceIds: sources.map((s) => s.id) },
    ip: caller.ip,
  });
  return sources.length;
}
