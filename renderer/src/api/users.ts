import type { Role } from '../../../server/contracts/auth';
import type { Permissions } from '../../../server/contracts/permissions';
import type { Group } from '../../../server/contracts/groups';
import type { AdminUserUpdate, ProfileImageUpload, PublicUser, User, UserListResponse, UserOrderBy, UserSettings } from '../../../server/contracts/users';
import { http, uploadForm } from './http';

const base = '/api/v1/users';

export interface UserListParams {
  query?: string;
  order_by?: UserOrderBy;
  direction?: 'asc' | 'desc';
  page?: number;
  group_id?: string;
  role?: Role;
}

/** Section 4.2: users, permissions, UI settings and profile images. */
export const usersApi = {
  list: (params: UserListParams) => http.get<UserListResponse>(`${base}/`, { ...params }),
  all: () => http.get<UserListResponse>(`${base}/all`),
  search: (query: string) => http.get<{ users: Array<{ id: string; name: string }> }>(`${base}/search`, { query }),
  active: () => http.get<{ user_ids: string[] }>(`${base}/active`),
  permissions: () => http.get<Permissions>(`${base}/permissions`),
  defaultPermissions: () => http.get<Permissions>(`${base}/default/permissions`),
  setDefaultPermissions: (body: Permissions) => http.post<Permissions>(`${base}/default/permissions`, body),
  settings: () => http.get<UserSettings | null>(`${base}/user/settings`, undefined, { quiet401: true }),
  setSettings: (body: UserSettings) => http.post<UserSettings>(`${base}/user/settings/update`, body),
  uploadProfileImage: (file: File, onProgress?: (f: number) => void) => {
    const form = new FormData();
    form.append('file', file);
    return uploadForm<ProfileImageUpload>(`${base}/user/profile/image`, form, onProgress);
  },
  get: (id: string) => http.get<PublicUser>(`${base}/${encodeURIComponent(id)}`),
  myGroups: () => http.get<Group[]>(`${base}/groups`),
  update: (id: string, body: AdminUserUpdate) => http.post<User>(`${base}/${encodeURIComponent(id)}/update`, body),
  remove: (id: string) => http.delete<true>(`${base}/${encodeURIComponent(id)}`),
};
