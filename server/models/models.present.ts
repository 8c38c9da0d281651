import type { AccessControl } from '../contracts/access';
import type { Model, ModelListEntry, ModelMeta, ModelParams } from '../contracts/models';
import { isAllowedProfileImageUrl } from '../contracts/profile-image';
import { readJson } from '../platform/db/json';
import type { ModelRow, ModelWithOwnerRow } from './models.repo';

/** The stored access-control list: SQL NULL is public read. */
export function accessControlOf(row: Pick<ModelRow, 'access_control'>): AccessControl {
  return row.access_control === null ? null : readJson<AccessControl>(row.access_control, {});
}

/** Meta with a picture URL stored before URLs were checked left out (viewers' browsers load it). */
function safeMeta(meta: ModelMeta): ModelMeta {
  if (typeof meta.profile_image_url !== 'string' || meta.profile_image_url === '' || isAllowedProfileImageUrl(meta.profile_image_url)) return meta;
  const { profile_image_url: _dropped, ...rest } = meta;
  return rest;
}

/** A models row as the API shows it (no `user`). */
export function presentModel(row: ModelRow): Model {
  return {
    id: row.id,
    name: row.name,
    base_model_id: row.base_model_id,
    user_id: row.user_id,
    params: readJson<ModelParams>(row.params, {}),
    meta: safeMeta(readJson<ModelMeta>(row.meta, {})),
    access_control: accessControlOf(row),
    is_active: Boolean(row.is_active),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** A list entry: the model with its owner's id, name, email and role. */
export function presentListEntry(row: ModelWithOwnerRow): ModelListEntry {
  return {
    ...presentModel(row),
    user:
      row.owner_name === null
        ? null
        : { id: row.user_id, name: row.owner_name, email: row.owner_email ?? '', role: row.owner_role ?? 'user' },
  };
}
