import type { Express } from 'express';
import { z } from 'zod';
import { artifactFrameRoutes } from './artifacts';
import { audioGatewayRoutes, audioRoutes } from './audio';
import { authRoutes, publicConfigRoutes } from './auth';
import { backupRoutes } from './backup';
import { builtinRoutes } from './builtin';
import { attachmentRoutes, chatLibraryRoutes, chatsRoutes } from './chats';
import { codeConfigRoutes, codeExecuteRoutes } from './code';
import { completionsRoutes } from './completions';
import { suggestionsRoutes } from './config';
import { PROFILE_IMAGE_MAX_BYTES } from './contracts/users';
import { desktopHandoverRoutes, firstRunSetupRoutes } from './desktop';
import { filesRoutes } from './files';
import { foldersRoutes } from './folders';
import { gatewayRoutes, openAiFallbacks, usageRoutes } from './gateway';
import { accountRateLimit } from './platform/http/account-rate-limit';
import { graphRoutes } from './graph';
import { groupsRoutes } from './groups';
import { imagesRoutes } from './images';
import { knowledgeRoutes } from './knowledge';
import { lanRoutes } from './lan';
import { offlineRoutes } from './offline';
import { baseModelsRoutes, modelsRoutes } from './models';
import { openApiRoutes } from './openapi';
import { buildRouter, route, type RouteAccess, type Routes } from './platform/http/route';
import { promptsRoutes } from './prompts';
import { compatRoutes, connectionsRoutes, connectionStatusRoutes, localRoutes } from './providers';
import { ratingsRoutes } from './ratings';
import { retrievalRoutes } from './retrieval';
import { webRoutes } from './web';
import type { Services } from './services';
import { requireAdmin, sessionGuards } from './session';
import { tasksRoutes } from './tasks';
import { toolServersRoutes, toolsRoutes } from './tools';
import { appIconPng, appIconRoutes, defaultAvatarPng, defaultAvatarRoutes, usersRoutes } from './users';
import { notesRoutes } from './notes';
import { memoriesRoutes } from './memories';

const healthRoutes: Routes = [route({ method: 'get', path: '/health', guard: 'public', summary: 'Liveness check', response: z.object({ status: z.boolean() }) }, async () => ({ status: true }))];

/** Mounts every domain's routes. Each domain adds one line here. */
export function mountRoutes(app: Express, services: Services): void {
  const access: RouteAccess = { guards: sessionGuards, allows: (user, permission) => services.permissions.allows(user, permission) };
  /** The Express router of a domain's declared routes, with the session's guards and the permissions service. */
  const routerOf = (routes: Routes) => buildRouter(routes, access);

  app.use(routerOf(healthRoutes));
  app.use(routerOf(artifactFrameRoutes()));
  const auths = routerOf(authRoutes(services.auth));
  app.use('/auths', auths);
  app.use('/api/v1/auths', auths);
  app.use('/auths', routerOf(desktopHandoverRoutes(services.desktop.handover, services.desktop.setup)));
  app.use('/api/v1/desktop/setup', routerOf(firstRunSetupRoutes(services.desktop.setup)));
  app.use(routerOf(defaultAvatarRoutes(defaultAvatarPng)));
  app.use(routerOf(appIconRoutes(appIconPng)));
  app.use('/api/v1/users', routerOf(usersRoutes(services.users, { maxImageBytes: Math.min(PROFILE_IMAGE_MAX_BYTES, services.boot.maxUploadBytes) })));
  app.use('/api/v1/groups', routerOf(groupsRoutes(services.groups)));
  app.use(
    '/api/config',
    routerOf(
      publicConfigRoutes({
        auth: services.auth,
        countUsers: () => services.usersRepo.count(),
        signedInFeatures: [async () => services.code.features(), async () => services.images.service.features(), async () => ({ enable_web_search: await services.web.service.enabled() })],
      }),
    ),
  );
  app.use('/api/v1/configs/lan', routerOf(lanRoutes(services.lan, services.auth)));
  app.use('/api/v1/configs/offline', routerOf(offlineRoutes(services.offline)));
  app.use('/api/v1/configs/suggestions', routerOf(suggestionsRoutes(services.config)));
  // Every path under /api/v1/backups is the admins', known or not.
  app.use('/api/v1/backups', requireAdmin, routerOf(backupRoutes(services.backups)));
  app.use('/compat', routerOf(compatRoutes(services.providers.settings)));
  app.use('/local', routerOf(localRoutes(services.providers.settings)));
  app.use('/builtin', routerOf(builtinRoutes(services.builtin)));
  app.use('/api/v1/configs/connections', routerOf(connectionsRoutes(services.providers.settings)));
  app.use('/api/v1/connections/status', routerOf(connectionStatusRoutes(services.providers.catalog)));
  app.use('/api/models', routerOf(baseModelsRoutes(services.models)));
  app.use('/api/v1/models', routerOf(modelsRoutes(services.models)));
  app.use('/api/v1/chats', routerOf([...attachmentRoutes(services.files), ...chatLibraryRoutes({ chats: services.chats, ...services.chatLibrary }), ...chatsRoutes(services.chats)]));
  app.use('/api/v1/folders', routerOf(foldersRoutes(services.folders)));
  app.use('/api/v1/prompts', routerOf(promptsRoutes(services.prompts)));
  app.use('/api/v1/audio', routerOf(audioRoutes(services.audio.service, services.audio.settings)));
  app.use('/api/v1/notes', routerOf(notesRoutes({ notes: services.notes.service, assist: (user, action, content, model) => services.tasks.noteAssist(user, action, content, { model }) })));
  app.use(
    '/api/v1/memories',
    routerOf(memoriesRoutes({ memories: services.memories.service, suggest: (user, messages, known, model) => services.tasks.memorySuggestions(user, messages, known, { model }) })),
  );
  app.use('/api/v1/channels', routerOf(services.channels.routes()));
  app.use('/api/v1/chats', routerOf(ratingsRoutes({ ratings: services.ratings, chats: services.chats })));
  app.use('/api/v1/files', routerOf(filesRoutes(services.files)));
  // One request budget per account for /v1 and the UI's completions path.
  const rateLimit = accountRateLimit(services.boot.v1RateLimit);
  app.use('/api/chat', routerOf(completionsRoutes(services.completions, rateLimit)));
  app.use('/api/v1/tasks', routerOf(tasksRoutes(services.tasks)));
  app.use('/api/v1/tools', routerOf(toolsRoutes(services.tools.registry, services.tools.servers)));
  app.use('/api/v1/configs/tool_servers', routerOf(toolServersRoutes(services.tools.servers)));
  app.use('/api/v1/configs/code_execution', routerOf(codeConfigRoutes(services.code.settings)));
  app.use('/api/v1/utils', routerOf(codeExecuteRoutes({ settings: services.code.settings, runner: services.code.runner })));
  app.use('/api/v1/images', routerOf(imagesRoutes({ settings: services.images.settings, images: services.images.service })));
  const knowledge = routerOf(knowledgeRoutes({ knowledge: services.knowledge.service, files: services.files }));
  app.use('/api/knowledge', knowledge);
  app.use('/api/v1/knowledge', knowledge);
  const graph = routerOf(graphRoutes({ graph: services.graph.service, auth: services.auth }));
  app.use('/api/knowledge', graph);
  app.use('/api/v1/knowledge', graph);
  app.use(
    '/v1',
    routerOf(
      gatewayRoutes({
        completions: services.completions,
        models: services.models,
        embedder: () => services.retrieval.embeddings.current(),
        usage: services.gateway.usage,
        rateLimit,
        images: { generate: (user, request, options) => services.images.service.generate(user, request, options), bytes: services.images.bytes, enabled: () => services.images.service.enabledConfig() },
        more: (rateLimit) => audioGatewayRoutes(services.audio.service, rateLimit),
      }),
    ),
    ...openAiFallbacks(services.log),
  );
  app.use('/api/v1/usage', routerOf(usageRoutes(services.gateway.usage)));
  app.use('/api', routerOf(openApiRoutes()));
  app.use(
    '/api/v1/retrieval',
    routerOf(
      retrievalRoutes({ settings: services.retrievalSettings, embeddings: services.retrieval.embeddings, query: (user, request) => services.knowledge.service.queryCollections(user, request), web: services.web.settings }),
    ),
  );
  app.use('/api/v1/retrieval', routerOf(webRoutes({ web: services.web.service, files: services.files, knowledge: services.knowledge.service })));
}
