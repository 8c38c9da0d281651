import { z } from 'zod';

/** Longest `data:` URL accepted as a picture (about 1.5 MB of image). */
export const PROFILE_IMAGE_DATA_URL_MAX = 2_000_000;
/** Longest relative image path accepted. */
const RELATIVE_PATH_MAX = 1024;

const DATA_IMAGE = /^data:image\/(png|jpeg|gif|webp|avif);base64,[A-Za-z0-9+/]+={0,2}$/;
/** The images stored by POST /api/v1/users/user/profile/image (Parley's stored-image path). */
const STORED_IMAGE = /^\/api\/v1\/users\/profile\/image\?path=[A-Za-z0-9._~%-]+$/;
/**
 * A relative path to an image file: one leading `/` (never `//`, a protocol-relative URL), path
 * characters and percent escapes only (no query string, fragment or backslash), ending in an
 * image file name.
 */
const RELATIVE_IMAGE = /^\/(?!\/)(?:[A-Za-z0-9._~+,=:@/-]|%[0-9A-Fa-f]{2})+\.(png|jpe?g|gif|webp|avif|svg|ico|bmp)$/i;
/** Escapes a browser would read as `.`, `/` or `\` (a way back into the API from an innocent prefix). */
const ENCODED_SEPARATOR = /%(2e|2f|5c)/i;
/** Where the service's API lives (matched case-insensitively: Express routes ignore case). */
const API_ROOTS = ['/api', '/auths', '/v1', '/compat', '/local', '/oauth', '/health', '/socket.io'];

function underApi(path: string): boolean {
  const lower = path.toLowerCase();
  return API_ROOTS.some((root) => lower === root || lower.startsWith(`${root}/`));
}

/** A relative path to an image file outside the API (`/user.png`, `/static/favicon.png`, `/img/x.png`). */
function isRelativeImagePath(value: string): boolean {
  if (value.length > RELATIVE_PATH_MAX || !RELATIVE_IMAGE.test(value) || ENCODED_SEPARATOR.test(value)) return false;
  if (value.split('/').some((segment) => segment === '.' || segment === '..')) return false;
  return !underApi(value);
}

/**
 * A picture other people's browsers load (user and model avatars): an inline raster image,
 * Parley's stored-image path, or a relative path to an image file outside the API. Never an
 * absolute URL, an API route or a script URL, which would make every viewer's browser call it
 * with their session cookie (an API path such as sign-out, or another site).
 */
export function isAllowedProfileImageUrl(value: string): boolean {
  if (value.length > PROFILE_IMAGE_DATA_URL_MAX) return false;
  return STORED_IMAGE.test(value) || DATA_IMAGE.test(value) || isRelativeImagePath(value);
}

/** `profile_image_url` as written by any request; empty means the default picture. */
export const ProfileImageUrl = z
  .string()
  .max(PROFILE_IMAGE_DATA_URL_MAX, `must be at most ${PROFILE_IMAGE_DATA_URL_MAX} characters`)
  .refine(
    (value) => value === '' || isAllowedProfileImageUrl(value),
    "must be a data:image/… URL (png, jpeg, gif, webp, avif), Parley's stored-image path (/api/v1/users/profile/image?path=…) or a relative path to an image file outside the API (/user.png, /static/favicon.png); absolute URLs and API routes are refused",
  );
