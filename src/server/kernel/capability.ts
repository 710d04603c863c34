import type { FastifyInstance } from 'fastify';
import type { MenuNode } from '../../shared/menu/types.js';
import type { ScreenSchema } from '../../shared/screens/fields.js';
import type { Kernel } from './context.js';
import type { Queryable } from './db/database.js';
import type { DashboardPart } from './dashboard/dashboard.js';
import type { FileDrawer } from './files/recordFiles.js';
import type { ConfigKind } from './labConfig/kinds.js';
import type { Ports } from './ports.js';
import type { HookRegistration } from './resources/hooks.js';
import type { TableResource } from './resources/tables.js';

/** What a capability's seeds are given: the screens, the menu tree and the demo settings of this start. */
export interface SeedSetup {
  screens: ScreenSchema[];
  schemaDir: string;
  menus: MenuNode[];
  demoPassword: string;
}

export interface CapabilitySeed {
  /** The product's own data, at every start (menus, system dictionaries); leaves what is there alone. */
  always?(tx: Queryable, setup: SeedSetup): Promise<void>;
  /**
   * Demo data, on a start whose demo data changed (LIMS_SEED_DEMO). Identity seeds (organisations, roles,
   * users) run first, then the screens' demo rows (schemas/demo), then the other capabilities' data,
   * each group in the order the capabilities are listed.
   */
  demo?(tx: Queryable, setup: SeedSetup): Promise<void>;
  phase?: 'identity' | 'data';
  /** The demo data written in code, so that a change of it seeds again (the demo files are read by the kernel). */
  demoData?: unknown;
}

/**
 * One capability of the lab (users, handover, QC, workflow, …) as the app assembles it: everything it
 * adds to the kernel, named in one object, with no side effects at import. Capabilities reach each
 * other only through the kernel (its generic resource, hooks on a resource, ports), never by importing
 * each other's modules or re-sending a request; the lint rules in eslint.config.js hold them to it.
 */
export interface Capability {
  /** The capability's folder under src/server, for logs and the import rules. */
  name: string;
  /** HTTP routes, registered in a scope of their own. */
  routes?(app: FastifyInstance, kernel: Kernel): Promise<void> | void;
  /** Rules this capability adds to generic writes of resources (its own, or another capability's). */
  hooks?(kernel: Kernel): HookRegistration[];
  /** Screens whose records live in this capability's own tables. */
  tables?: TableResource[];
  /** Kinds of per-lab configuration (spec 7.2 customConfig) this capability reads. */
  configKinds?: ConfigKind[];
  /** Services this capability offers the others, through the kernel. */
  ports?(kernel: Kernel): Partial<Ports>;
  seed?: CapabilitySeed;
  /** What this capability counts on the user's dashboard (GET /api/dashboard), read from the database. */
  dashboard?(kernel: Kernel): DashboardPart;
  /** How files it defers to after their step's commit are drawn (kernel/files), by name. */
  fileDrawers?: Record<string, FileDrawer>;
}
