import { checkboxField, textField } from './form-loop.ts';
import { Permission, PERMISSION_NAMES, effectivePermissions } from '../server/access/permissions.ts';

/** What the role dialog (components/RoleDialog.astro) posts. */
export interface RoleValues { name: string; slug: string; permissions: number }

/** The role dialog's fields: the switches' bits OR-ed together. */
export function readRoleValues(f: FormData): RoleValues {
  return {
    name: textField(f, 'name'), slug: textField(f, 'slug'),
    permissions: PERMISSION_NAMES.reduce((bits, name) => (checkboxField(f, `bit_${name}`) ? bits | Permission[name] : bits), 0),
  };
}

/** The bits a role acts with, named (a coarse bit's parts included, as the server checks them). */
export function roleAllows(t: (key: string) => string, role: { permissions: number; builtin: boolean }): string {
  const bits = effectivePermissions(role.permissions, role.builtin);
  return PERMISSION_NAMES.filter((name) => bits & Permission[name]).map((name) => t(`roles.bit_${name}`)).join(', ') || t('roles.nothing');
}
