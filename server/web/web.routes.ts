import type { Response } from 'express';
import { ProcessWebRequest, ProcessWebResponse, ProcessWebSearchRequest, ProcessWebSearchResponse } from '../contracts/web';
import { badRequest, forbidden } from '../platform/http/errors';
import { route, type Routes } from '../platform/http/route';
import { asWebFetchError } from './fetch/fetch-errors';
import { presentPage, savePage, type WebPagesDeps } from './web-pages';
import type { WebService } from './web.service';

/** Aborted when the client goes away. */
function clientSignal(res: Response): AbortSignal {
  const controller = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  return controller.signal;
}

const noPermission = () => forbidden('You do not have permission to use web search', 'WEB_SEARCH_FORBIDDEN');

/**
 * Open WebUI's web endpoints under `/api/v1/retrieval`: `POST /process/web/search` searches,
 * reads the pages and indexes them; `POST /process/web` reads one page into a collection. Both
 * need web search on and the `features.web_search` permission (403, before the body is read),
 * and read pages only within the fetch rules (a refused page is a 400 saying why).
 */
export function webRoutes(deps: WebPagesDeps & { web: WebService }): Routes {
  const { web, knowledge } = deps;
  const enabled = () => web.requireEnabled();
  return [
    route(
      {
        method: 'post',
        path: '/process/web/search',
        guard: 'user',
        permission: 'features.web_search',
        refused: noPermission,
        authorize: enabled,
        body: ProcessWebSearchRequest,
        response: ProcessWebSearchResponse,
        summary: 'Search the web, read the top pages and index them (as files of the caller, or into a knowledge base)',
      },
      async ({ user, body, res, authorized: cfg }) => {
        if (body.collection_name) await knowledge.get(user, body.collection_name);
        const signal = clientSignal(res);
        const items = await web.search(body.queries, signal);
        const pages = (await web.read(items.map((r) => r.link), { signal })).flatMap((o) => (o.ok ? [o] : []));
        const filenames = pages.map((p) => p.url);
        if (cfg.BYPASS_WEB_SEARCH_EMBEDDING_AND_RETRIEVAL && !body.collection_name) {
          return { status: true as const, collection_name: null, collection_names: [], filenames, items, loaded_count: pages.length, docs: pages.map((p) => ({ content: p.text, metadata: { source: p.url, title: p.title } })) };
        }
        const collections: string[] = [];
        for (const page of pages) collections.push((await savePage(deps, user, page, body.collection_name)).collection);
        return { status: true as const, collection_name: body.collection_name ?? null, collection_names: [...new Set(collections)], filenames, items, loaded_count: pages.length };
      },
    ),
    route(
      {
        method: 'post',
        path: '/process/web',
        guard: 'user',
        permission: 'features.web_search',
        refused: noPermission,
        authorize: enabled,
        body: ProcessWebRequest,
        response: ProcessWebResponse,
        summary: 'Read one web page into a collection (a file of the caller, or a knowledge base)',
      },
      async ({ user, body, res, authorized: cfg }) => {
        if (body.collection_name) await knowledge.get(user, body.collection_name);
        let page;
        try {
          page = await web.readOne(body.url, clientSignal(res));
        } catch (error) {
          const known = asWebFetchError(error);
          if (known?.code === 'OFFLINE') throw forbidden(known.message, 'OFFLINE');
          if (known) throw badRequest(`The page could not be read: ${known.message}`, `WEB_${known.code}`);
          throw error;
        }
        if (cfg.BYPASS_WEB_SEARCH_EMBEDDING_AND_RETRIEVAL && !body.collection_name) return { status: true as const, collection_name: null, filename: page.url, file: presentPage(page) };
        const saved = await savePage(deps, user, page, body.collection_name);
        return { status: true as const, collection_name: saved.collection, filename: page.url, file: presentPage(page, saved.file) };
      },
    ),
  ];
}
