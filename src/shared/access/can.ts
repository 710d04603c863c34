/**
 * The one answer to "may this user do this?" (refine's `can`). The server asks it before every
 * change and every read of a row; the app asks it to hide what the server would refuse.
 *
 * Org isolation: a user works inside their own organisation. The base organisation (org 0) manages
 * every laboratory, and a main lab manages the sub labs whose parent it is.
 */
export type RoleCode = 'admin' | 'editor';
export type Action = 'read' | 'create' | 'update' | 'delete';
export type Resource = 'user' | 'admin' | 'organization' | 'role' | 'menu' | 'push' | 'processModel';

export interface Actor {
  id: number;
  orgId: number;
  roles: readonly string[];
}

/** The organisation a row belongs to, and that organisation's parent when known. */
export interface Target {
  orgId: number;
  parentOrgId?: number | null;
}

export const BASE_ORG_ID = 0;

type Policy = Record<Action, readonly RoleCode[]>;
const ADMIN_ONLY: Policy = { read: ['admin'], create: ['admin'], update: ['admin'], delete: ['admin'] };

const policies: Record<Resource, Policy> = {
  user: ADMIN_ONLY,
  admin: ADMIN_ONLY,
  role: ADMIN_ONLY,
  menu: { read: ['admin', 'editor'], create: ['admin'], update: ['admin'], delete: ['admin'] },
  organization: { read: ['admin', 'editor'], create: ['admin'], update: ['admin'], delete: ['admin'] },
  /** Sending a push alert to users (create); nothing else of an alert is kept to read or change. */
  push: ADMIN_ONLY,
  /** Workflow design (spec 2.4): editors draw and deploy models; deleting one is the admin's call. */
  processModel: {
    read: ['admin', 'editor'],
    create: ['admin', 'editor'],
    update: ['admin', 'editor'],
    delete: ['admin'],
  },
};

export function manages(actor: Actor, target: Target): boolean {
  if (actor.orgId === target.orgId || actor.orgId === BASE_ORG_ID) return true;
  return target.parentOrgId != null && target.parentOrgId === actor.orgId;
}

export function hasRole(actor: Actor, roles: readonly string[]): boolean {
  return actor.roles.some((r) => roles.includes(r));
}

export function can(actor: Actor, resource: Resource, action: Action, target?: Target): boolean {
  if (!hasRole(actor, policies[resource][action])) return false;
  return target === undefined || manages(actor, target);
}
