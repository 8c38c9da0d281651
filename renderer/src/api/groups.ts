import type { CreateGroupRequest, Group, UpdateGroupRequest } from '../../../server/contracts/groups';
import { http } from './http';

const base = '/api/v1/groups';
const one = (id: string) => `${base}/id/${encodeURIComponent(id)}`;

/** Section 4.3: groups. */
export const groupsApi = {
  list: () => http.get<Group[]>(`${base}/`),
  create: (body: CreateGroupRequest) => http.post<Group>(`${base}/create`, body),
  get: (id: string) => http.get<Group>(one(id)),
  update: (id: string, body: UpdateGroupRequest) => http.post<Group>(`${one(id)}/update`, body),
  addUsers: (id: string, user_ids: string[]) => http.post<Group>(`${one(id)}/users/add`, { user_ids }),
  removeUsers: (id: string, user_ids: string[]) => http.post<Group>(`${one(id)}/users/remove`, { user_ids }),
  remove: (id: string) => http.delete<true>(`${one(id)}/delete`),
};
