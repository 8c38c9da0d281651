import { EmbeddingConfigResponse, EmbeddingConfigUpdate, QueryCollectionRequest, QueryCollectionResponse, RetrievalConfigUpdate, RetrievalConfigView } from '../contracts/retrieval';
import { route, type Routes } from '../platform/http/route';
import type { SessionUser } from '../session';
import type { WebConfigUpdate, WebConfigView } from '../contracts/web';
import type { EmbeddingService } from './embedding/embedding.service';
import type { RetrievalSettings } from './retrieval-config';

/** Section 4.7 and the collection query. Mounted at `/api/v1/retrieval`. Invalid settings answer 400, like the other admin settings. */
export function retrievalRoutes(deps: {
  settings: RetrievalSettings;
  embeddings: EmbeddingService;
  /** Runs a query over collections the caller may read (the knowledge domain checks access). */
  query: (user: SessionUser, request: QueryCollectionRequest) => Promise<QueryCollectionResponse>;
  /** The web search settings, the config's `web` object (keys masked). */
  web: { view(): Promise<WebConfigView>; update(patch: WebConfigUpdate): Promise<WebConfigView> };
}): Routes {
  const update = (summary: string, path: '/config/update' | '/config') =>
    route({ method: 'post', path, guard: 'admin', body: RetrievalConfigUpdate, invalid: 400, summary, response: RetrievalConfigView }, async ({ body }) => {
      const { web, ...rest } = body;
      // The retrieval fields first: their cross-field rules may still refuse the whole update.
      const settings = await deps.settings.update(rest);
      return { ...settings, web: web ? await deps.web.update(web) : await deps.web.view() };
    });
  return [
    route({ method: 'get', path: '/config', guard: 'admin', summary: 'Retrieval settings (with the web search settings in `web`)', response: RetrievalConfigView }, async () => ({
      ...(await deps.settings.get()),
      web: await deps.web.view(),
    })),
    update('Update the retrieval settings', '/config/update'),
    update('Update the retrieval settings (alias)', '/config'),
    route({ method: 'get', path: '/embedding', guard: 'admin', summary: 'Embedding settings and re-embedding progress', response: EmbeddingConfigResponse }, () => deps.embeddings.get()),
    route(
      { method: 'post', path: '/embedding/update', guard: 'admin', body: EmbeddingConfigUpdate, invalid: 400, summary: 'Update the embedding settings', response: EmbeddingConfigResponse },
      ({ user, body }) => deps.embeddings.update(body, user.id),
    ),
    route({ method: 'post', path: '/query/collection', guard: 'user', body: QueryCollectionRequest, summary: 'Search knowledge bases', response: QueryCollectionResponse }, ({ user, body }) =>
      deps.query(user, body),
    ),
  ];
}
