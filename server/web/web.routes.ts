import { Router, type Response } from 'express';
import { authOf, requireUser } from '../session';
import { ProcessWebRequest, ProcessWebSearchRequest, type ProcessWebResponse, type ProcessWebSearchResponse } from '../contracts/web';
import { badRequest } from '../platform/http/errors';
import { validateBody } from '../platform/http/validate';
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

/**
 * Open WebUI's web endpoints under `/api/v1/retrieval`: `POST /process/web/search` searches,
 * reads the pages and indexes them; `POST /process/web` reads one page into a collection. Both
 * need web search on and the `features.web_search` permission (403), and read pages only
 * within the fetch rules (a refused page is a 400 saying why).
 */
export function webRoutes(deps: WebPagesDeps & { web: WebService }): Router {
  const { web, knowledge } = deps;
  const router = Router();

  router.post('/process/web/search', requireUser, validateBody(ProcessWebSearchRequest), async (req, res) => {
    const caller = authOf(req).user;
    const body = req.body as ProcessWebSearchRequest;
    const cfg = await web.requireAccess(caller);
    if (body.collection_name) await knowledge.get(caller, body.collection_name);
    const signal = clientSignal(res);
    const items = await web.search(body.queries, signal);
    const pages = (await web.read(items.map((r) => r.link), { signal })).flatMap((o) => (o.ok ? [o] : []));
    const filenames = pages.map((p) => p.url);
    if (cfg.BYPASS_WEB_SEARCH_EMBEDDING_AND_RETRIEVAL && !body.collection_name) {
      const answer: ProcessWebSearchResponse = { status: true, collection_name: null, collection_names: [], filenames, items, loaded_count: pages.length, docs: pages.map((p) => ({ content: p.text, metadata: { source: p.url, title: p.title } })) };
      return void res.json(answer);
    }
    const collections: string[] = [];
    for (const page of pages) collections.push((await savePage(deps, caller, page, body.collection_name)).collection);
    const answer: ProcessWebSearchResponse = {
      status: true,
      collection_name: body.collection_name ?? null,
      collection_names: [...new Set(collections)],
      filenames,
      items,
      loaded_count: pages.length,
    };
    res.json(answer);
  });

  router.post('/process/web', requireUser, validateBody(ProcessWebRequest), async (req, res) => {
    const caller = authOf(req).user;
    const body = req.body as ProcessWebRequest;
    const cfg = await web.requireAccess(caller);
    if (body.collection_name) await knowledge.get(caller, body.collection_name);
    let page;
    try {
      page = await web.readOne(body.url, clientSignal(res));
    } catch (error) {
      const known = asWebFetchError(error);
      if (known) throw badRequest(`The page could not be read: ${known.message}`, `WEB_${known.code}`);
      throw error;
    }
    if (cfg.BYPASS_WEB_SEARCH_EMBEDDING_AND_RETRIEVAL && !body.collection_name) {
      const answer: ProcessWebResponse = { status: true, collection_name: null, filename: page.url, file: presentPage(page) };
      return void res.json(answer);
    }
    const saved = await savePage(deps, caller, page, body.collection_name);
    const answer: ProcessWebResponse = { status: true, collection_name: saved.collection, filename: page.url, file: presentPage(page, saved.file) };
    res.json(answer);
  });
  return router;
}
