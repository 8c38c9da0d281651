import dns from 'node:dns';

/** Turns a host name into the addresses a connection may use (tests pass their own). */
export type Resolve = (hostname: string) => Promise<string[]>;

/** The operating system's resolver (hosts file, DNS), every address of the name; looked up at call time, so a process-wide hook (tests' connection counter) sees it. */
export const systemResolve: Resolve = async (hostname) => (await dns.promises.lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

/** A resolver answering from a fixed table (tests); unknown names fail like a missing DNS record. */
export function tableResolve(table: Record<string, string | string[]>): Resolve {
  return async (hostname) => {
    const entry = table[hostname.toLowerCase()];
    if (entry === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return Array.isArray(entry) ? entry : [entry];
  };
}
