import type { Role } from './auth';

/** A user as the API shows it. */
export interface User {
  id: string;
  name: string;
  email: string;
  role: Role;
  profile_image_url: string;
  info: Record<string, unknown>;
  created_at: number;
  last_active_at?: number;
}

/** The default avatar path shown for accounts without a picture. */
export const DEFAULT_PROFILE_IMAGE_URL = '/user.png';
