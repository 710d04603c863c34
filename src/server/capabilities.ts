import type { Capability } from './kernel/capability.js';
import { auth } from './auth/capability.js';
import { barcodes } from './barcodes/capability.js';
import { customConfig } from './customConfig/capability.js';
import { dataInput } from './dataInput/capability.js';
import { dictionaries } from './dictionaries/capability.js';
import { finance } from './finance/capability.js';
import { forms } from './forms/capability.js';
import { handover } from './handover/capability.js';
import { logs } from './logs/capability.js';
import { menus } from './menus/capability.js';
import { microbiology } from './microbiology/capability.js';
import { organizations } from './organizations/capability.js';
import { pathology } from './pathology/capability.js';
import { qc } from './qc/capability.js';
import { reports } from './reports/capability.js';
import { results } from './results/capability.js';
import { roles } from './roles/capability.js';
import { specimens } from './specimens/capability.js';
import { statistics } from './statistics/capability.js';
import { users } from './users/capability.js';
import { workflow } from './workflow/capability.js';

/**
 * Every capability of the lab, in the order their seeds run and their rules on a shared resource apply
 * (a rule's own `order` comes first). Organisations come before roles and users, whose demo rows need them.
 */
export const CAPABILITIES: readonly Capability[] = [
  organizations,
  roles,
  users,
  auth,
  menus,
  dictionaries,
  forms,
  workflow,
  specimens,
  handover,
  customConfig,
  dataInput,
  barcodes,
  qc,
  results,
  pathology,
  reports,
  finance,
  microbiology,
  statistics,
  logs,
];
