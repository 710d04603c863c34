import { describe, expect, it } from 'vitest';
import { can, manages, type Actor } from '../../src/shared/access/can';

const baseAdmin: Actor = { id: 1, orgId: 0, roles: ['admin'] };
const mainAdmin: Actor = { id: 2, orgId: 1, roles: ['admin'] };
const mainEditor: Actor = { id: 3, orgId: 1, roles: ['editor'] };
const subAdmin: Actor = { id: 4, orgId: 2, roles: ['admin'] };

const mainLab = { orgId: 1, parentOrgId: 0 };
const subLab = { orgId: 2, parentOrgId: 1 };
const onlyLab = { orgId: 4, parentOrgId: 0 };

describe('can(user, resource, action, target)', () => {
  it('refuses editors on admin-only resources and lets them read organisations', () => {
    expect(can(mainEditor, 'user', 'read', mainLab)).toBe(false);
    expect(can(mainEditor, 'admin', 'create', mainLab)).toBe(false);
    expect(can(mainEditor, 'organization', 'read', mainLab)).toBe(true);
    expect(can(mainEditor, 'organization', 'update', mainLab)).toBe(false);
  });

  it('keeps a lab inside its own organisation', () => {
    expect(can(subAdmin, 'user', 'read', subLab)).toBe(true);
    expect(can(subAdmin, 'user', 'update', mainLab)).toBe(false);
    expect(can(subAdmin, 'user', 'delete', onlyLab)).toBe(false);
  });

  it('lets the base organisation manage every lab, and a main lab its own sub labs only', () => {
    for (const target of [mainLab, subLab, onlyLab]) expect(can(baseAdmin, 'admin', 'create', target)).toBe(true);
    expect(can(mainAdmin, 'user', 'update', subLab)).toBe(true);
    expect(can(mainAdmin, 'user', 'update', onlyLab)).toBe(false);
    expect(can(mainAdmin, 'user', 'update', { orgId: 0, parentOrgId: null })).toBe(false);
  });

  it('answers role-only questions without a target', () => {
    expect(can(mainAdmin, 'user', 'read')).toBe(true);
    expect(can({ id: 9, orgId: 1, roles: [] }, 'organization', 'read')).toBe(false);
  });

  it('manages() follows the parent link one level only', () => {
    expect(manages(subAdmin, { orgId: 5, parentOrgId: 2 })).toBe(true);
    expect(manages(mainAdmin, { orgId: 5, parentOrgId: 2 })).toBe(false);
  });

  it('lets editors design process models of their own lab but leaves deleting them to admins', () => {
    expect(can(mainEditor, 'processModel', 'read', { orgId: 1 })).toBe(true);
    expect(can(mainEditor, 'processModel', 'update', { orgId: 1 })).toBe(true);
    expect(can(mainEditor, 'processModel', 'delete', { orgId: 1 })).toBe(false);
    expect(can(mainAdmin, 'processModel', 'delete', { orgId: 1 })).toBe(true);
    expect(can(subAdmin, 'processModel', 'update', { orgId: 0 })).toBe(false);
    expect(can(baseAdmin, 'processModel', 'update', { orgId: 2 })).toBe(true);
  });
});
