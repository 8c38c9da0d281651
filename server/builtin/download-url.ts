/**
 * Download URLs may carry secrets: `user:pass@` or a token in the query (`?token=…`, signed
 * links). The full URL stays with admins and the connection; everyone else, and every log line
 * and stored error, sees it redacted.
 */

/** The URL without its user and password, and the Basic authorization they stood for. */
export function splitCredentials(raw: string): { url: string; authorization?: string } {
  const parsed = new URL(raw);
  if (!parsed.username && !parsed.password) return { url: raw };
  const pair = `${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`;
  parsed.username = '';
  parsed.password = '';
  return { url: parsed.href, authorization: `Basic ${Buffer.from(pair).toString('base64')}` };
}

/** `https://host/path?name=…`: no user or password, query values and fragment replaced. */
export function redactUrl(raw: string): string {
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    return '[a URL]';
  }
  const names = [...new Set(parsed.searchParams.keys())];
  const query = names.length > 0 ? `?${names.map((name) => `${encodeURIComponent(name)}=…`).join('&')}` : '';
  return `${parsed.protocol}//${parsed.host}${parsed.pathname}${query}`;
}

/** `text` (an error message) with every http(s) URL in it redacted. */
export function redactUrlsIn(text: string): string {
  return text.replace(/\bhttps?:\/\/[^\s'"<>]+/gi, (url) => redactUrl(url));
}
