import type { TFunction } from 'i18next';

/** A project member as `GET /api/project/{id}/users` lists them. */
export interface Member { id: number; username: string; name: string }

/**
 * Who a schedule or an integration acts for (its `owner_id`, the person who last saved it), in
 * words: "Runs as Ann"; without an owner, that someone must save it again. An owner who is no
 * member (an admin) shows by id.
 */
export function runsAsText(t: TFunction, ownerId: number | null | undefined, members: readonly Member[]): string {
  if (ownerId == null) return t('common.noOwner');
  const owner = members.find((m) => m.id === ownerId);
  return t('common.runsAs', { name: owner ? owner.name || owner.username : `#${ownerId}` });
}
