import type { WebSearchEngine } from '../../contracts/web';
import { bing } from './bing';
import { brave } from './brave';
import { duckduckgo } from './duckduckgo';
import type { SearchEngine } from './engine';
import { exa } from './exa';
import { external } from './external';
import { googlePse } from './google-pse';
import { jina } from './jina';
import { kagi } from './kagi';
import { searxng } from './searxng';
import { serper } from './serper';
import { tavily } from './tavily';

/** Every engine by its WEB_SEARCH_ENGINE name. */
export const ENGINES: Record<WebSearchEngine, SearchEngine> = {
  searxng,
  brave,
  tavily,
  google_pse: googlePse,
  kagi,
  serper,
  exa,
  jina,
  bing,
  duckduckgo,
  external,
};

export type { SearchEngine, EngineContext, EngineQuery } from './engine';
export { createEngineHttp, type EngineHttp } from './engine-http';
