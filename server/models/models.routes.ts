import { Router, type RequestHandler } from 'express';
import { authOf, requireAdmin, requireUser } from '../session';
import { CreateModelRequest, ModelIdQuery, ModelListQuery, ModelsConfigUpdate, UpdateModelRequest } from '../contracts/models';
import { validateBody, validateQuery } from '../platform/http/validate';
import { modelsPermissionRequired } from './models.errors';
import type { Models } from './models.module';

/** GET /api/models (admin): the merged base models of every enabled provider. Mounted at `/api/models`. */
export function baseModelsRoutes(models: Models): Router {
  const router = Router();
  router.get('/', requireAdmin, async (_req, res) => {
    res.json(await models.resolution.baseModels());
  });
  return router;
}

/** Section 4.4 plus the model picker and the registry setting. Mounted at `/api/v1/models`. */
export function modelsRoutes(models: Models): Router {
  const router = Router();
  const { registry, resolution } = models;
  const idOf = (res: { locals: Record<string, unknown> }) => (res.locals.query as { id: string }).id;

  /** 403 before the body is validated, like every other refusal. */
  const requireCreatePermission: RequestHandler = async (req, _res, next) => {
    if (!(await registry.canCreate(authOf(req).user))) throw modelsPermissionRequired();
    next();
  };

  router.get('/list', requireUser, validateQuery(ModelListQuery), async (req, res) => {
    res.json(await registry.list(authOf(req).user, (res.locals.query as { id?: string }).id));
  });
  router.get('/available', requireUser, async (req, res) => {
    res.json(await resolution.available(authOf(req).user));
  });
  router.get('/model', requireUser, validateQuery(ModelIdQuery), async (req, res) => {
    res.json(await registry.get(authOf(req).user, idOf(res)));
  });
  router.post('/create', requireUser, requireCreatePermission, validateBody(CreateModelRequest), async (req, res) => {
    res.json(await registry.create(authOf(req).user, req.body as CreateModelRequest));
  });
  router.post('/model/update', requireUser, validateQuery(ModelIdQuery), validateBody(UpdateModelRequest), async (req, res) => {
    res.json(await registry.update(authOf(req).user, idOf(res), req.body as UpdateModelRequest));
  });
  router.post('/model/toggle', requireUser, validateQuery(ModelIdQuery), async (req, res) => {
    res.json(await registry.toggle(authOf(req).user, idOf(res)));
  });
  router.delete('/model/delete', requireUser, validateQuery(ModelIdQuery), async (req, res) => {
    res.json(await registry.remove(authOf(req).user, idOf(res)));
  });

  router.get('/config', requireAdmin, async (_req, res) => {
    res.json(await models.getConfig());
  });
  router.post('/config', requireAdmin, validateBody(ModelsConfigUpdate, { status: 400 }), async (req, res) => {
    res.json(await models.updateConfig(req.body as ModelsConfigUpdate));
  });
  return router;
}
