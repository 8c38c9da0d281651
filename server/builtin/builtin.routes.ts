import busboy from 'busboy';
import type { Request } from 'express';
import { Router } from 'express';
import { authOf, requireAdmin, requireUser } from '../session';
import { BuiltinConfigUpdate, BuiltinDownloadRequest, BuiltinImportPathRequest, BuiltinModelKind, BuiltinModelUpdate, type BuiltinModel } from '../contracts/builtin';
import { badRequest } from '../platform/http/errors';
import { parseOrThrow, validateBody } from '../platform/http/validate';
import type { Builtin } from './builtin.module';
import { recommendedFor } from './recommended-models';

const AS_400 = { status: 400 } as const;

/** Reads the one `file` part of a multipart upload and hands its stream to the library. */
function receiveModel(req: Request, builtin: Builtin): Promise<BuiltinModel> {
  let parser: busboy.Busboy;
  try {
    parser = busboy({ headers: req.headers, limits: { files: 1, fields: 10, fieldSize: 4096 } });
  } catch {
    throw badRequest('Expected a multipart/form-data body with the model in the `file` field, or JSON {path}', 'NOT_MULTIPART');
  }
  const caller = { id: authOf(req).user.id };
  return new Promise<BuiltinModel>((resolve, reject) => {
    const fields: Record<string, string> = {};
    let started: Promise<BuiltinModel> | undefined;
    parser.on('field', (name, value) => {
      fields[name] = value;
    });
    parser.on('file', (field, stream, info) => {
      if (field !== 'file' || started) {
        stream.resume();
        return;
      }
      const kind = fields.kind ? BuiltinModelKind.safeParse(fields.kind) : undefined;
      started = builtin.library.importStream(stream, {
        fileName: info.filename ?? 'model.gguf',
        ...(fields.name ? { name: fields.name.slice(0, 200) } : {}),
        ...(kind?.success ? { kind: kind.data } : {}),
        caller,
      });
      started.catch(() => undefined);
    });
    parser.on('error', (error: Error) => reject(badRequest(`The upload could not be read: ${error.message}`, 'MALFORMED_UPLOAD')));
    parser.on('close', () => {
      if (!started) reject(badRequest('No file was sent: put the .gguf in the `file` form field', 'NO_FILES'));
      else started.then(resolve, reject);
    });
    req.pipe(parser);
  });
}

/** The built-in model library and runtime settings. Mounted at `/builtin`. */
export function builtinRoutes(builtin: Builtin): Router {
  const router = Router();
  const { library } = builtin;

  router.get('/models', requireUser, async (_req, res) => {
    res.json(await library.list());
  });
  router.get('/recommended', requireUser, (_req, res) => {
    res.json(recommendedFor());
  });
  router.post('/models/import', requireAdmin, async (req, res) => {
    if (req.is('application/json')) {
      const body = parseOrThrow(BuiltinImportPathRequest, req.body, AS_400);
      res.json(await library.importPath(body.path, { ...body, caller: { id: authOf(req).user.id } }));
      return;
    }
    res.json(await receiveModel(req, builtin));
  });
  router.post('/models/download', requireAdmin, validateBody(BuiltinDownloadRequest, AS_400), async (req, res) => {
    const body = req.body as BuiltinDownloadRequest;
    res.json(await library.download({ ...body, caller: { id: authOf(req).user.id } }));
  });
  router.get('/models/:id', requireUser, async (req, res) => {
    res.json(await library.get(String(req.params.id)));
  });
  router.post('/models/:id', requireAdmin, validateBody(BuiltinModelUpdate, AS_400), async (req, res) => {
    res.json(await library.update(String(req.params.id), req.body as BuiltinModelUpdate));
  });
  router.post('/models/:id/pause', requireAdmin, async (req, res) => {
    res.json(await library.pause(String(req.params.id)));
  });
  router.post('/models/:id/resume', requireAdmin, async (req, res) => {
    res.json(await library.resume(String(req.params.id)));
  });
  router.post('/models/:id/cancel', requireAdmin, async (req, res) => {
    await library.cancel(String(req.params.id));
    res.json(true);
  });
  router.delete('/models/:id', requireAdmin, async (req, res) => {
    await library.remove(String(req.params.id));
    res.json(true);
  });
  router.get('/config', requireAdmin, async (_req, res) => {
    res.json(await builtin.getConfig());
  });
  router.post('/config', requireAdmin, validateBody(BuiltinConfigUpdate, AS_400), async (req, res) => {
    res.json(await builtin.updateConfig(req.body as BuiltinConfigUpdate));
  });
  return router;
}
