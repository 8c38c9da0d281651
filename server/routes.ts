import type { Express } from 'express';
import { buildRouter, type RouteAccess, type Routes } from './platform/http/route';
import { sessionGuards } from './session';
import { authRoutes } from './auth';
import { backupRoutes } from './backup';
import { attachmentRoutes, chatsRoutes } from './chats';
import { chatLibraryRoutes } from './chats/chat-library.routes';
import { foldersRoutes } from './folders';
import { promptsRoutes } from './prompts';
import { completionsRoutes } from './completions';
import { filesRoutes } from './files';
import { tasksRoutes } from './tasks';
import { publicConfigRoutes } from './auth/public-config.routes';
import { knowledgeRoutes } from './knowledge';
import { graphRoutes } from './graph';
import { lanRoutes } from './lan';
import { baseModelsRoutes, modelsRoutes } from './models';
import { compatRoutes, connectionsRoutes, connectionStatusRoutes, localRoutes } from './providers';
import { builtinRoutes } from './builtin';
import { audioGatewayRoutes, audioRoutes } from './audio';
import { retrievalRoutes } from './retrieval';
import { ratingsRoutes } from './ratings';
import { desktopHandoverRoutes, firstRunSetupRoutes } from './desktop';
import { suggestionsRoutes } from './config';
import type { Services } from './services';
import { toolServersRoutes, toolsRoutes } from './tools';
import { groupsRoutes } from './groups';
import { gatewayRoutes, usageRoutes } from './gateway';
import { openApiRoutes } from './openapi';
import { defaultAvatarPng, defaultAvatarRoutes, usersRoutes } from './users';
import { PROFILE_IMAGE_MAX_BYTES } from './contracts/users';

/** Mounts every domain's routes. Each domain adds one line here. */
export function mountRoutes(app: Express, services: Services): void {
  const access: RouteAccess = { guards: sessionGuards, allows: (user, permission) => services.permissions.allows(user, permission) };
  /** The Express router of a domain's declared routes, with the session's guards and the permissions service. */
  const routerOf = (routes: Routes) => buildRouter(routes, access);

  app.get('/health', (_req, res) => {
    res.json({ status: true });
  });

  const auths = authRoutes(services.auth);
  app.use('/auths', auths);
  app.use('/api/v1/auths', auths);
  app.use('/auths', desktopHandoverRoutes(services.desktop.handover, services.desktop.setup));
  app.use('/api/v1/desktop/setup', firstRunSetupRoutes(services.desktop.setup));
  app.use(defaultAvatarRoutes(defaultAvatarPng));
  app.use('/api/v1/users', usersRoutes(services.users, { maxImageBytes: Math.min(PROFILE_IMAGE_MAX_BYTES, services.boot.maxUploadBytes) }));
  app.use('/api/v1/groups', groupsRoutes(services.groups));
  app.use('/api/config', publicConfigRoutes({ auth: services.auth, countUsers: () => services.usersRepo.count() }));
  app.use('/api/v1/configs/lan', lanRoutes(services.lan, services.auth));
  app.use('/api/v1/configs/suggestions', suggestionsRoutes(services.config));
  app.use('/api/v1/backups', backupRoutes(services.backups));
  app.use('/compat', compatRoutes(services.providers.settings));
  app.use('/local', localRoutes(services.providers.settings));
  app.use('/builtin', builtinRoutes(services.builtin));
  app.use('/api/v1/configs/connections', connectionsRoutes(services.providers.settings));
  app.use('/api/v1/connections/status', connectionStatusRoutes(services.providers.catalog));
  app.use('/api/models', baseModelsRoutes(services.models));
  app.use('/api/v1/models', modelsRoutes(services.models));
  app.use('/api/v1/chats', attachmentRoutes(services), chatLibraryRoutes({ chats: services.chats, ...services.chatLibrary }), chatsRoutes(services.chats));
  app.use('/api/v1/folders', foldersRoutes(services.folders));
  app.use('/api/v1/prompts', routerOf(promptsRoutes(services.prompts)));
  app.use('/api/v1/audio', routerOf(audioRoutes(services.audio.service, services.audio.settings)));
  app.use('/api/v1/chats', ratingsRoutes({ ratings: services.ratings, chats: services.chats }));
  app.use('/api/v1/files', filesRoutes(services.files));
  app.use('/api/chat', completionsRoutes(services.completions));
  app.use('/api/v1/tasks', tasksRoutes(services.tasks));
  app.use('/api/v1/tools', toolsRoutes(services.tools.registry, services.tools.servers));
  app.use('/api/v1/configs/tool_servers', toolServersRoutes(services.tools.servers));
  const knowledge = knowledgeRoutes({ knowledge: services.knowledge.service, files: services.files });
  app.use('/api/knowledge', knowledge);
  app.use('/api/v1/knowledge', knowledge);
  const graph = graphRoutes({ graph: services.graph.service, auth: services.auth });
  app.use('/api/knowledge', graph);
  app.use('/api/v1/knowledge', graph);
  app.use(
    '/v1',
    gatewayRoutes({
      completions: services.completions,
      models: services.models,
      embedder: () => services.retrieval.embeddings.current(),
      usage: services.gateway.usage,
      rateLimit: services.boot.v1RateLimit,
      audio: (router, guard) => audioGatewayRoutes(router, guard, { audio: services.audio.service, allows: (user, key) => services.permissions.allows(user, key) }),
      log: services.log,
    }),
  );
  app.use('/api/v1/usage', usageRoutes(services.gateway.usage));
  app.use('/api', openApiRoutes());
  app.use('/api/v1/retrieval', retrievalRoutes({ settings: services.retrievalSettings, embeddings: services.retrieval.embeddings, query: (user, request) => services.knowledge.service.queryCollections(user, request) }));
}
