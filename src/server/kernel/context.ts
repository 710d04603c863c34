import type { ServerConfig } from './config.js';
import type { Database } from './db/database.js';
import type { ScreenRegistry } from './screens/registry.js';
import type { PushHub } from './push/hub.js';
import type { Capability } from './capability.js';
import { LabClock } from './clock.js';
import { ConfigKinds } from './labConfig/kinds.js';
import { timeZoneKind } from './labConfig/timeZone.js';
import { PORT_NAMES, type Ports } from './ports.js';
import { PublicData } from './publicData/service.js';
import { HookRegistry } from './resources/hooks.js';
import { RecordStore } from './resources/store.js';
import { RecordEvents } from './events/events.js';
import { RecordFiles } from './files/recordFiles.js';
import { ResourceService } from './resources/service.js';
import { SessionCache } from './identity/sessionCache.js';
import { ReadCache } from './db/readCache.js';
import { dashboardNews, type DashboardPart } from './dashboard/dashboard.js';

/** What the process gives the kernel: the database, the configuration, the clock, screens and push. */
export interface KernelBase {
  db: Database;
  config: ServerConfig;
  /** Injected so tests can age a session past the idle limit without waiting for it. */
  now: () => Date;
  /** Screen schemas of schemas/screens/, kept current while the server runs. */
  screens: ScreenRegistry;
  /** Alerts to signed-in users' browsers (spec 4 push channel). */
  push: PushHub;
  /** The lab clock, when the process sets lab times (a generated month); else one over `now`. */
  clock?: LabClock;
}

/**
 * The platform every capability stands on: the base services, the generic resource (in process, with
 * the rules capabilities add to it), public data, typed records, lab configuration kinds, and the
 * ports through which one capability offers a service to another.
 */
export interface Kernel extends KernelBase {
  /** The lab's time of a step: the wall clock, or the lab time a generated day runs at (clock.ts). */
  now: () => Date;
  /** The wall clock, for what is about real people waiting (sessions), whatever lab time is set. */
  wallNow: () => Date;
  clock: LabClock;
  resources: ResourceService;
  publicData: PublicData;
  hooks: HookRegistry;
  records: RecordStore;
  /** Records' histories (a specimen's timeline): transitions and capabilities' steps. */
  events: RecordEvents;
  /** Files kept with records as issued (a signed report's PDF). */
  files: RecordFiles;
  configKinds: ConfigKinds;
  ports: Ports;
  /** Signed-in sessions remembered between calls, forgotten on the database's change notices. */
  sessions: SessionCache;
  /** Answers of the busiest reads, kept until lab data is next written (by any process). */
  reads: ReadCache;
  /** The capabilities' parts of the dashboard, in their order. */
  dashboard: DashboardPart[];
}

/**
 * The kernel with everything the capabilities add, in the order they are listed: their rules on
 * resources, their table resources (and public stores), their configuration kinds and their ports.
 * A port no capability provides is a wiring fault, found here at start rather than at the first call.
 */
export function createKernel(base: KernelBase, capabilities: readonly Capability[]): Kernel {
  const hooks = new HookRegistry();
  const ports: Partial<Ports> = {};
  const clock = base.clock ?? new LabClock(base.now);
  const sessions = new SessionCache(base.db);
  const reads = new ReadCache(base.db, clock.now, base.config.readCacheMs);
  const db = reads.watching(sessions.watching(base.db));
  const kernel: Kernel = {
    ...base,
    db,
    now: clock.now,
    wallNow: clock.wallNow,
    clock,
    hooks,
    resources: new ResourceService(db, base.screens, hooks, () => kernel),
    publicData: new PublicData(db, base.screens),
    records: new RecordStore(base.screens),
    events: new RecordEvents(),
    files: new RecordFiles(db),
    configKinds: new ConfigKinds(),
    ports: ports as Ports,
    sessions,
    reads,
    dashboard: [],
  };
  kernel.configKinds.add(timeZoneKind(base.config.timeZone));
  for (const capability of capabilities) {
    for (const kind of capability.configKinds ?? []) kernel.configKinds.add(kind);
    for (const table of capability.tables ?? []) {
      kernel.resources.useTable(table.resource, table.adapter(kernel));
      if (table.publicStore) kernel.publicData.useStore(table.resource, table.publicStore(kernel));
    }
    Object.assign(ports, capability.ports?.(kernel));
    for (const [name, drawer] of Object.entries(capability.fileDrawers ?? {})) kernel.files.drawWith(name, drawer);
  }
  for (const capability of capabilities)
    for (const registration of capability.hooks?.(kernel) ?? []) hooks.add(registration);
  kernel.dashboard = capabilities.flatMap((c) => (c.dashboard ? [c.dashboard(kernel)] : []));
  for (const registration of dashboardNews(kernel.dashboard, () => kernel.push)) hooks.add(registration);
  const missing = PORT_NAMES.filter((name) => !ports[name]);
  if (missing.length > 0) throw new Error(`no capability provides the port(s) ${missing.join(', ')}`);
  return kernel;
}
