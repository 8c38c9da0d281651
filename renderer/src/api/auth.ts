import type { AddUserRequest, AddUserResponse, AuthConfig, AuthConfigUpdate, SessionResponse, SigninRequest, SignupRequest, UpdatePasswordRequest, UpdateProfileRequest } from '../../../server/contracts/auth';
import type { PublicConfig } from '../../../server/contracts/public-config';
import type { User } from '../../../server/contracts/users';
import { http } from './http';

const base = '/api/v1/auths';

/** Section 4.1: accounts, sessions, API keys and the auth admin settings. */
export const authApi = {
  publicConfig: () => http.get<PublicConfig>('/api/config'),
  signup: (body: Omit<SignupRequest, 'profile_image_url'>) => http.post<SessionResponse>(`${base}/signup`, body, { quiet401: true }),
  signin: (body: SigninRequest) => http.post<SessionResponse>(`${base}/signin`, body, { quiet401: true }),
  session: () => http.get<SessionResponse>(`${base}/`, undefined, { quiet401: true }),
  signout: () => http.get<{ status: boolean }>(`${base}/signout`, undefined, { quiet401: true }),
  addUser: (body: AddUserRequest) => http.post<AddUserResponse>(`${base}/add`, body),
  getApiKey: () => http.get<{ api_key: string }>(`${base}/api_key`),
  createApiKey: () => http.post<{ api_key: string }>(`${base}/api_key`),
  deleteApiKey: () => http.delete<true>(`${base}/api_key`),
  updateProfile: (body: UpdateProfileRequest) => http.post<Pick<User, 'id' | 'name' | 'email' | 'profile_image_url' | 'info'>>(`${base}/update/profile`, body),
  updatePassword: (body: UpdatePasswordRequest) => http.post<true>(`${base}/update/password`, body),
  getConfig: () => http.get<AuthConfig>(`${base}/admin/config`),
  setConfig: (body: AuthConfigUpdate) => http.post<AuthConfig>(`${base}/admin/config`, body),
};
