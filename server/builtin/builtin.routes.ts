import busboy from 'busboy';
import type { Request } from 'express';
import { z } from 'zod';
import {
  BuiltinConfigResponse,
  BuiltinConfigUpdate,
  BuiltinDownloadRequest,
  BuiltinImportPathRequest,
  BuiltinModel,
  BuiltinModelKind,
  BuiltinModelUpdate,
  RecommendedModel,
} from '../contracts/builtin';
import { badRequest } from '../platform/http/errors';
import { route, type RouteUser, type Routes } from '../platform/http/route';
import { parseOrThrow } from '../platform/http/validate';
import type { Builtin } from './builtin.module';
import { recommendedFor } from './recommended-models';

/** Reads the one `file` part of a multipart upload and hands its stream to the library. */
function receiveModel(req: Request, builtin: Builtin, user: RouteUser): Promise<BuiltinModel> {
  let parser: busboy.Busboy;
  try {
    parser = busboy({ headers: req.headers, limits: { files: 1, fields: 10, fieldSize: 4096 } });
  } catch {
    throw badRequest('Expected a multipart/form-data body with the model in the `file` field, or JSON {path}', 'NOT_MULTIPART');
  }
  const caller = { id: user.id };
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

/** The built-in model library and runtime settings. Mounted at `/builtin`. Invalid values answer 400. */
export function builtinRoutes(builtin: Builtin): Routes {
  const { library } = builtin;
  return [
    route({ method: 'get', path: '/models', guard: 'user', summary: 'Built-in (GGUF) models on this machine', response: z.array(BuiltinModel) }, ({ user }) => library.list(user.role === 'admin')),
    route({ method: 'get', path: '/recommended', guard: 'user', summary: 'Recommended built-in models to download', response: z.array(RecommendedModel) }, async () => recommendedFor()),
    route({ method: 'post', path: '/models/import', guard: 'admin', consumes: 'multipart', summary: 'Import a GGUF file', response: BuiltinModel }, async ({ req, user }) => {
      if (!req.is('application/json')) return receiveModel(req, builtin, user);
      // The JSON form names a file already on this machine.
      const body = parseOrThrow(BuiltinImportPathRequest, req.body, { status: 400 });
      return library.importPath(body.path, { ...body, caller: { id: user.id } });
    }),
    route({ method: 'post', path: '/models/download', guard: 'admin', body: BuiltinDownloadRequest, invalid: 400, summary: 'Download a model from a URL', response: BuiltinModel }, ({ user, body }) =>
      library.download({ ...body, caller: { id: user.id } }),
    ),
    route({ method: 'get', path: '/models/:id', guard: 'user', summary: 'A built-in model', response: BuiltinModel }, ({ user, params }) => library.get(params.id, user.role === 'admin')),
    route({ method: 'post', path: '/models/:id', guard: 'admin', body: BuiltinModelUpdate, invalid: 400, summary: 'Rename a built-in model or change its settings', response: BuiltinModel }, ({ params, body }) =>
      library.update(params.id, body),
    ),
    route({ method: 'post', path: '/models/:id/pause', guard: 'admin', summary: 'Pause a download', response: BuiltinModel }, ({ params }) => library.pause(params.id)),
    route({ method: 'post', path: '/models/:id/resume', guard: 'admin', summary: 'Resume a download', response: BuiltinModel }, ({ params }) => library.resume(params.id)),
    route({ method: 'post', path: '/models/:id/cancel', guard: 'admin', summary: 'Cancel a download', response: z.boolean() }, async ({ params }) => {
      await library.cancel(params.id);
      return true;
    }),
    route({ method: 'delete', path: '/models/:id', guard: 'admin', summary: 'Delete a built-in model', response: z.boolean() }, async ({ params }) => {
      await library.remove(params.id);
      return true;
    }),
    route({ method: 'get', path: '/config', guard: 'admin', summary: 'Built-in model runtime settings', response: BuiltinConfigResponse }, () => builtin.getConfig()),
    route({ method: 'post', path: '/config', guard: 'admin', body: BuiltinConfigUpdate, invalid: 400, summary: 'Update the built-in model runtime settings', response: BuiltinConfigResponse }, ({ body }) =>
      builtin.updateConfig(body),
    ),
  ];
}
