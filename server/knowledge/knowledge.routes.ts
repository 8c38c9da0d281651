import { Router, type RequestHandler } from 'express';
import yazl from 'yazl';
import { authOf, requireUser } from '../session';
import { KnowledgeCreate, KnowledgeFileRequest, KnowledgeUpdate } from '../contracts/knowledge';
import type { FilesService } from '../files';
import { validateBody } from '../platform/http/validate';
import type { KnowledgeService, VisibleBase } from './knowledge.service';

/** Content-Disposition for a download (ASCII fallback plus the RFC 5987 UTF-8 form). */
function attachment(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/** A unique, safe entry name for each file in the ZIP. */
function entryNames(names: string[]): string[] {
  const used = new Set<string>();
  return names.map((raw) => {
    // eslint-disable-next-line no-control-regex
    const base = raw.replace(/[\\/:*?"<>|\u0000-\u001f]/g, '_').replace(/^\.+/, '_') || 'file';
    let name = base;
    for (let n = 2; used.has(name.toLowerCase()); n += 1) {
      const dot = base.lastIndexOf('.');
      name = dot > 0 ? `${base.slice(0, dot)} (${n})${base.slice(dot)}` : `${base} (${n})`;
    }
    used.add(name.toLowerCase());
    return name;
  });
}

/** Section 4.6 (without the graph endpoints). Mounted at `/api/knowledge` and `/api/v1/knowledge`. */
export function knowledgeRoutes(deps: { knowledge: KnowledgeService; files: FilesService }): Router {
  const { knowledge, files } = deps;
  const router = Router();
  const id = (params: Record<string, unknown>) => String(params.id);
  // A base the caller cannot see is 404 before its body is validated (DESIGN "Decisions").
  const visible: RequestHandler = async (req, res, next) => {
    res.locals.visibleBase = await knowledge.requireVisible(authOf(req).user, id(req.params));
    next();
  };

  router.get('/', requireUser, async (req, res) => {
    res.json(await knowledge.list(authOf(req).user));
  });
  router.post('/create', requireUser, validateBody(KnowledgeCreate), async (req, res) => {
    res.json(await knowledge.create(authOf(req).user, req.body as KnowledgeCreate));
  });
  router.get('/:id', requireUser, async (req, res) => {
    res.json(await knowledge.get(authOf(req).user, id(req.params)));
  });
  router.post('/:id/update', requireUser, visible, validateBody(KnowledgeUpdate), async (req, res) => {
    res.json(await knowledge.update(authOf(req).user, id(req.params), req.body as KnowledgeUpdate));
  });
  router.delete('/:id/delete', requireUser, async (req, res) => {
    await knowledge.delete(authOf(req).user, id(req.params));
    res.json({ success: true });
  });
  router.post('/:id/file/add', requireUser, visible, validateBody(KnowledgeFileRequest), async (req, res) => {
    res.json(await knowledge.addFile(authOf(req).user, id(req.params), (req.body as KnowledgeFileRequest).file_id, res.locals.visibleBase as VisibleBase));
  });
  router.get('/:id/file/:file_id/preview', requireUser, async (req, res) => {
    res.json(await knowledge.filePreview(authOf(req).user, id(req.params), String(req.params.file_id)));
  });
  router.post('/:id/file/remove', requireUser, visible, validateBody(KnowledgeFileRequest), async (req, res) => {
    res.json(await knowledge.removeFile(authOf(req).user, id(req.params), (req.body as KnowledgeFileRequest).file_id));
  });
  router.get('/:id/export', requireUser, async (req, res) => {
    const { name, files: rows } = await knowledge.exportFiles(authOf(req).user, id(req.params));
    const zip = new yazl.ZipFile();
    const names = entryNames(rows.map((f) => f.filename));
    rows.forEach((file, i) => zip.addReadStream(files.openStream(file.id), names[i]!, { mtime: new Date(file.created_at * 1000), size: file.size }));
    zip.end();
    res.set({ 'content-type': 'application/zip', 'content-disposition': attachment(`${name}.zip`) });
    zip.outputStream.on('error', () => res.destroy());
    zip.outputStream.pipe(res);
  });
  return router;
}
