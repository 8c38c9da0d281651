import { z } from 'zod';

/** Longest `data:` URL accepted as a picture (about 1.5 MB of image). */
export const PROFILE_IMAGE_DATA_URL_MAX = 2_000_000;

const DATA_IMAGE = /^data:image\/(png|jpeg|gif|webp|avif);base64,[A-Za-z0-9+/]+={0,2}$/;
/** The default avatar and the images stored by POST /api/v1/users/user/profile/image. */
const OWN_IMAGE = /^(\/user\.png|\/api\/v1\/users\/profile\/image\?path=[A-Za-z0-9._~%-]+)$/;

/**
 * A picture other people's browsers load (user and model avatars): only an inline raster image
 * or one of Parley's own image paths, never an arbitrary URL, which would make every viewer's
 * browser call it with their session cookie (an API path such as sign-out, or another site).
 */
export function isAllowedProfileImageUrl(value: string): boolean {
  return value.length <= PROFILE_IMAGE_DATA_URL_MAX && (OWN_IMAGE.test(value) || DATA_IMAGE.test(value));
}

/** `profile_image_url` as written by any request; empty means the default picture. */
export const ProfileImageUrl = z
  .string()
  .max(PROFILE_IMAGE_DATA_URL_MAX, `must be at most ${PROFILE_IMAGE_DATA_URL_MAX} characters`)
  .refine((value) => value === '' || isAllowedProfileImageUrl(value), "must be a data:image/… URL (png, jpeg, gif, webp, avif) or one of Parley's own image paths (/user.png, /api/v1/users/profile/image?path=…)");
