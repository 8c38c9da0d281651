/**
 * The admin's domain list (WEB_SEARCH_DOMAIN_FILTER_LIST): `example.com` allows that domain and
 * its subdomains (once any is listed, only listed domains are searched and read), `!example.com`
 * refuses it. Matching is by whole labels: `example.com` does not match `badexample.com`.
 */
export interface DomainFilter {
  /** True when a page on `host` may be used. */
  allows(host: string): boolean;
  /** Domains named without `!` (engines that can restrict a search to them are told). */
  readonly allowed: readonly string[];
  readonly blocked: readonly string[];
}

const under = (host: string, domain: string) => host === domain || host.endsWith(`.${domain}`);

/** Builds the filter from the list. */
export function domainFilter(list: readonly string[]): DomainFilter {
  const clean = (d: string) => d.trim().toLowerCase().replace(/^\*\./, '').replace(/\.$/, '');
  const allowed = list.filter((d) => !d.trim().startsWith('!')).map(clean).filter(Boolean);
  const blocked = list.filter((d) => d.trim().startsWith('!')).map((d) => clean(d.trim().slice(1))).filter(Boolean);
  return {
    allowed,
    blocked,
    allows(host) {
      const h = host.toLowerCase().replace(/\.$/, '');
      if (allowed.length > 0 && !allowed.some((d) => under(h, d))) return false;
      return !blocked.some((d) => under(h, d));
    },
  };
}

/** True when `url` is an http(s) URL whose host the filter allows. */
export function urlAllowed(filter: DomainFilter, url: string): boolean {
  try {
    const parsed = new URL(url);
    return (parsed.protocol === 'http:' || parsed.protocol === 'https:') && filter.allows(parsed.hostname);
  } catch {
    return false;
  }
}
