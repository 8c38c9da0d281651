import { z } from 'zod';
import { OptionalUrl } from './urls';

/** The search engines Parley can ask (`WEB_SEARCH_ENGINE`). SearXNG is the one to run in an office. */
export const WEB_SEARCH_ENGINES = ['searxng', 'brave', 'tavily', 'google_pse', 'kagi', 'serper', 'exa', 'jina', 'bing', 'duckduckgo', 'external'] as const;
export type WebSearchEngine = (typeof WEB_SEARCH_ENGINES)[number];

/** Engine keys, named as Open WebUI names them; they live in the secret store and are shown masked. */
export const WEB_SEARCH_KEYS = [
  'GOOGLE_PSE_API_KEY',
  'BRAVE_SEARCH_API_KEY',
  'KAGI_SEARCH_API_KEY',
  'SERPER_API_KEY',
  'TAVILY_API_KEY',
  'EXA_API_KEY',
  'JINA_API_KEY',
  'BING_SEARCH_V7_SUBSCRIPTION_KEY',
  'EXTERNAL_WEB_SEARCH_API_KEY',
] as const;
export type WebSearchKey = (typeof WEB_SEARCH_KEYS)[number];

/** True for an IPv4 or IPv6 address. */
function isIpAddress(text: string): boolean {
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (v4) return v4.slice(1).every((part) => Number(part) <= 255 && String(Number(part)) === part);
  if (!text.includes(':') || !/^[0-9a-fA-F:.]+$/.test(text)) return false;
  try {
    return new URL(`http://[${text}]/`).hostname !== '';
  } catch {
    return false;
  }
}

/** An address or CIDR range such as `10.20.0.0/16` or `fd12:3456::/48`. */
export function isCidr(entry: string): boolean {
  const [address = '', prefix, extra] = entry.split('/');
  if (extra !== undefined || !isIpAddress(address)) return false;
  if (prefix === undefined) return true;
  const max = address.includes(':') ? 128 : 32;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= max;
}

/** A domain of the allow/deny list: `example.com` allows it (and its subdomains), `!example.com` refuses it. */
const DomainEntry = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(254)
  .regex(/^!?[a-z0-9.*-]+$/i, 'must be a domain such as example.com or !example.com');

/** Web search settings (`web` in the retrieval config), without the keys. */
export const WebConfig = z.object({
  /** Off by default: nothing is searched or fetched until an admin turns it on. */
  ENABLE_WEB_SEARCH: z.boolean(),
  WEB_SEARCH_ENGINE: z.enum(WEB_SEARCH_ENGINES),
  /** Results asked of the engine per query, and pages read. */
  WEB_SEARCH_RESULT_COUNT: z.number().int('must be an integer').min(1, 'must be at least 1').max(50, 'must be at most 50'),
  /** Pages fetched at the same time. */
  WEB_SEARCH_CONCURRENT_REQUESTS: z.number().int('must be an integer').min(1, 'must be at least 1').max(32, 'must be at most 32'),
  /** Domains searched and read (`example.com`), or refused (`!example.com`); empty: any. */
  WEB_SEARCH_DOMAIN_FILTER_LIST: z.array(DomainEntry).max(500),
  /** Give the model whole pages instead of the passages the hybrid search ranks best. */
  BYPASS_WEB_SEARCH_EMBEDDING_AND_RETRIEVAL: z.boolean(),
  /** The SearXNG search URL (`http://searxng.office:8080/search`); JSON output must be on in its settings. */
  SEARXNG_QUERY_URL: OptionalUrl,
  GOOGLE_PSE_ENGINE_ID: z.string().trim().max(256),
  BING_SEARCH_V7_ENDPOINT: OptionalUrl,
  /** `external` engine: Parley POSTs `{query, count}` here and reads `[{link, title, snippet}]`. */
  EXTERNAL_WEB_SEARCH_URL: OptionalUrl,
  /** Private networks pages may still be read from (an intranet wiki), as CIDR ranges. */
  WEB_FETCH_ALLOWED_NETWORKS: z.array(z.string().trim().refine(isCidr, 'must be an IP address or CIDR range such as 10.20.0.0/16')).max(100),
});
export type WebConfig = z.infer<typeof WebConfig>;

/** A fresh install: web search off, SearXNG chosen, three pages per search. */
export const DEFAULT_WEB_CONFIG: WebConfig = {
  ENABLE_WEB_SEARCH: false,
  WEB_SEARCH_ENGINE: 'searxng',
  WEB_SEARCH_RESULT_COUNT: 3,
  WEB_SEARCH_CONCURRENT_REQUESTS: 10,
  WEB_SEARCH_DOMAIN_FILTER_LIST: [],
  BYPASS_WEB_SEARCH_EMBEDDING_AND_RETRIEVAL: false,
  SEARXNG_QUERY_URL: '',
  GOOGLE_PSE_ENGINE_ID: '',
  BING_SEARCH_V7_ENDPOINT: 'https://api.bing.microsoft.com/v7.0/search',
  EXTERNAL_WEB_SEARCH_URL: '',
  WEB_FETCH_ALLOWED_NETWORKS: [],
};

/** The settings as an admin sees them: keys masked (`••••••••1a2b`, or '' when none is set). */
export const WebConfigView = WebConfig.extend(Object.fromEntries(WEB_SEARCH_KEYS.map((key) => [key, z.string()])) as Record<WebSearchKey, z.ZodString>);
export type WebConfigView = z.infer<typeof WebConfigView>;

const KeyUpdate = z.string().max(4096, 'must be at most 4096 characters');

/**
 * `web` of POST /api/v1/retrieval/config/update: any subset. A key sent as '' is removed; a key
 * sent back exactly as it was shown (masked) is kept.
 */
export const WebConfigUpdate = WebConfig.partial().extend(Object.fromEntries(WEB_SEARCH_KEYS.map((key) => [key, KeyUpdate.optional()])) as Record<WebSearchKey, z.ZodOptional<typeof KeyUpdate>>);
export type WebConfigUpdate = z.infer<typeof WebConfigUpdate>;

/** One search result, as engines answer and Open WebUI shapes it. */
export const WebSearchResult = z.object({ link: z.string(), title: z.string(), snippet: z.string() });
export type WebSearchResult = z.infer<typeof WebSearchResult>;

/** POST /api/v1/retrieval/process/web/search. */
export const ProcessWebSearchRequest = z.object({
  queries: z.array(z.string().trim().min(1, 'must not be empty').max(500, 'must be at most 500 characters')).min(1, 'must hold at least one query').max(10, 'must hold at most 10 queries'),
  /** A knowledge base (its id) the pages are added to; without it, each page becomes a file of its own. */
  collection_name: z.string().trim().min(1).max(200).optional(),
});
export type ProcessWebSearchRequest = z.infer<typeof ProcessWebSearchRequest>;

/** A page read into a collection: the file holding its text (no id when nothing was saved). */
export const WebPageFile = z.object({
  id: z.string(),
  data: z.object({ content: z.string() }),
  meta: z.object({ name: z.string(), source: z.string(), title: z.string().optional() }),
});
export type WebPageFile = z.infer<typeof WebPageFile>;

/** The answer of POST /api/v1/retrieval/process/web/search. */
export const ProcessWebSearchResponse = z.object({
  status: z.literal(true),
  /** The knowledge base the pages went to, or null when each page is a collection of its own (`collection_names`). */
  collection_name: z.string().nullable(),
  collection_names: z.array(z.string()),
  /** The pages read (URLs). */
  filenames: z.array(z.string()),
  /** What the engine answered. */
  items: z.array(WebSearchResult),
  loaded_count: z.number().int(),
  /** With BYPASS_WEB_SEARCH_EMBEDDING_AND_RETRIEVAL: the pages' text, nothing indexed. */
  docs: z.array(z.object({ content: z.string(), metadata: z.object({ source: z.string(), title: z.string() }) })).optional(),
});
export type ProcessWebSearchResponse = z.infer<typeof ProcessWebSearchResponse>;

/** POST /api/v1/retrieval/process/web. */
export const ProcessWebRequest = z.object({
  url: z.string().trim().min(1, 'must not be empty').max(2048, 'must be at most 2048 characters'),
  /** A knowledge base (its id) the page is added to; without it the page is a file of its own (`file-<id>`). */
  collection_name: z.string().trim().min(1).max(200).optional(),
});
export type ProcessWebRequest = z.infer<typeof ProcessWebRequest>;

/** The answer of POST /api/v1/retrieval/process/web. */
export const ProcessWebResponse = z.object({
  status: z.literal(true),
  collection_name: z.string().nullable(),
  filename: z.string(),
  file: WebPageFile,
});
export type ProcessWebResponse = z.infer<typeof ProcessWebResponse>;
