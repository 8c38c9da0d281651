/** Paths of the service's own API: an image pointing there would make the viewer's browser call it with their cookie. */
const API_PATHS = /^\/(api|v1|ollama|openai|oauth)(\/|$)/i;

/**
 * False for an image whose address is the service's own API (`![](/api/v1/auths/signout)` in a
 * shared chat would sign its viewer out, or call any other GET as them). Relative addresses resolve
 * against this page, as the browser would resolve them.
 */
export function isSafeImageSource(src: string | undefined, pageUrl: string): boolean {
  if (!src) return false;
  let url: URL;
  try {
    url = new URL(src, pageUrl);
  } catch {
    return false;
  }
  if (url.origin !== new URL(pageUrl).origin) return true;
  return !API_PATHS.test(decodeURIComponentSafe(url.pathname).replace(/\/{2,}/g, '/'));
}

function decodeURIComponentSafe(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}
