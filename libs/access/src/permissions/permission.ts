/** Permission names of the groups API (DESIGN §5, a contract). */
export const PERMISSIONS = [
  'view',
  'download',
  'upload',
  'uploadWithApproval',
  'edit',
  'editWithApproval',
  'delete',
  'approve',
] as const;

export type Permission = (typeof PERMISSIONS)[number];

export function isPermission(value: unknown): value is Permission {
  return typeof value === 'string' && (PERMISSIONS as readonly string[]).includes(value);
}
