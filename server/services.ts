import path from 'node:path';
import type { ProcessStarter } from './platform/process-starter';
import { createAuthRepo, createAuthService, createSigninLimiter, createSignupLimiter, createTokenService, hashPassword, loadJwtKey } from './auth';
import { createBackupRepo, createBackupService } from './backup';
import { createAttachmentsRepo, createChatLibrary, createChatsRepo, createChatsService } from './chats';
import { createFoldersRepo, createFoldersService } from './folders';
import { createPromptsRepo, createPromptsService } from './prompts';
import { createCompletionsService, type ToolResolver, type ToolSet } from './completions';
import { createGateway } from './gateway';
import { createConfigRepo, createConfigService } from './config';
import { createFilesRepo, createFilesService } from './files';
import { createGroupsRepo, createGroupsService, createMembershipsRepo } from './groups';
import { createKnowledge, createRagStage } from './knowledge';
import { createGraph } from './graph';
import { createLanSharing, createLanTls, lanAddresses } from './lan';
import type { Clock } from './platform/clock';
import { dialectOf, type Db } from './platform/db/knex';
import { tableFeed } from './platform/db/table-cache';
import { createJobs } from './platform/jobs';
import { assertOutboundAllowed, outboundFetch } from './platform/net/outbound';
import type { BootConfig } from './platform/env';
import type { Logger } from './platform/log';
import { createPermissionsService } from './permissions';
import { createHostAllowlist } from './platform/http/host-allowlist';
import { addressSet } from './platform/http/trusted-proxies';
import { createProviders } from './providers';
import { autoThreads, createBuiltin } from './builtin';
import { createAudio, createLocalStt } from './audio';
import { createCode } from './code';
import { createImages } from './images';
import { createModels } from './models';
import type { RealtimeHub } from './realtime';
import { createRetrieval, createRetrievalSettings, sweepSnapshotTemps } from './retrieval';
import type { SecretStore } from './secrets';
import { createTaskRunner, createTasksService } from './tasks';
import { createWeb, createWebSearchPlug, type WebTestOptions } from './web';
import { createTools, promptToolCalls } from './tools';
import { announcePendingSignups, createProfileImageStore, createUsersRepo, createUsersService, safeImageUrl } from './users';
import { createRatingsRepo, createRatingsService } from './ratings';
import { createFirstRunSetup, createOwnerHandover } from './desktop';
import { createOfflineMode } from './offline';
import { createNotes } from './notes';
import { createMemories } from './memories';
import { createChannels } from './channels';

/** What every service is built from. */
export interface Platform {
  boot: BootConfig;
  db: Db;
  log: Logger;
  clock: Clock;
  secrets: SecretStore;
  realtime: RealtimeHub;
  /** This process's name among the instances on the database (owner of the jobs it claims). */
  instance: string;
  /** Web search wiring for tests (resolver, engine fakes). */
  webTest?: WebTestOptions;
  /** Starts helper processes (default: child_process.fork; the desktop app injects utilityProcess). */
  startProcess?: ProcessStarter;
}

/** Builds every domain service from the platform. The one composition root of the service. */
export async function buildServices(platform: Platform) {
  const { boot, db, log, clock, secrets } = platform;
  // What every instance must read (uploads, index snapshots, model files): the shared folder when several run.
  const sharedDir = boot.sharedDir ?? boot.dataDir;
  const alone = dialectOf(db) === 'sqlite';
  const jobs = createJobs({ db, owner: platform.instance, leaseMs: boot.jobLeaseMs, poll: !alone, clock, log });
  await jobs.recover({ alone });
  const usersRepo = createUsersRepo(db);
  const config = createConfigService(createConfigRepo(db), clock);
  await config.warm();
  // Offline mode: every outbound connection asks platform/net/outbound.ts, which asks this.
  const offline = createOfflineMode({ config, env: boot.offline, allowedNetworks: boot.offlineAllowedNetworks });
  const memberships = createMembershipsRepo(db);
  const permissions = createPermissionsService({ config, groupsOf: (userId) => memberships.grantsOf(userId) });
  const tokens = createTokenService(await loadJwtKey(secrets));
  const authRepo = createAuthRepo(db);
  const auth = createAuthService({
    users: usersRepo,
    repo: authRepo,
    tokens,
    config,
    permissions,
    secrets,
    limiter: createSigninLimiter({ perAccount: boot.signinRateLimit, windowSeconds: boot.signinRateWindowSeconds }),
    signupLimiter: createSignupLimiter(boot.signupRateLimit),
    clock,
    log,
    sockets: platform.realtime,
    trustedEmailHeader: boot.trustedEmailHeader,
    trustedNameHeader: boot.trustedNameHeader,
    trustedProxies: addressSet(boot.trustedProxies),
  });
  const hostAllowlist = createHostAllowlist({ bindHost: boot.host, publicUrls: boot.publicUrls });
  await authRepo.pruneRevoked(clock.now());

  const groups = createGroupsService({ repo: createGroupsRepo(db), clock });
  const users = createUsersService({
    repo: usersRepo,
    permissions,
    groupsOf: (userId) => groups.ofUser(userId),
    presence: platform.realtime,
    images: createProfileImageStore(path.join(sharedDir, 'uploads', 'profile-images')),
    hashPassword,
    clock,
    log,
  });
  users.afterUserDeleted((userId) => auth.deleteApiKey(userId));
  const pendingSignups = announcePendingSignups({ feed: tableFeed(db, 'users'), repo: usersRepo, realtime: platform.realtime, log });
  users.onPasswordReset((userId) => auth.revokeSessions(userId));

  const lan = createLanSharing({
    config,
    log,
    tls: createLanTls({ dataDir: boot.dataDir, secrets, addresses: () => lanAddresses() }),
    hasAdmin: async () => (await usersRepo.countByRole('admin')) > 0,
    hostAllowed: (host) => hostAllowlist.allows(host),
  });

  // whisper.cpp on a worker thread, started on first use (a transcription or a model's probe).
  const localStt = createLocalStt({ log, idleMs: () => 300_000 });
  const builtin = await createBuiltin({ db, config, dataDir: sharedDir, clock, log, startProcess: platform.startProcess, speech: { probe: (file) => localStt.probe(file, autoThreads()), unload: (file) => localStt.unload(file) } });
  const providers = createProviders({ config, secrets, log, clock, builtin: () => builtin.handle() });
  builtin.onModelsChange(() => providers.catalog.invalidate());
  await providers.settings.seed({ compatUrl: boot.compatBaseUrl, compatKey: boot.compatApiKey, localUrl: boot.localBaseUrl });
  const models = createModels({ db, config, permissions, providers, clock, log });

  const files = createFilesService({ repo: createFilesRepo(db), dir: path.join(sharedDir, 'uploads'), maxBytes: boot.maxUploadBytes, shared: !alone, clock, log });
  const swept = files.sweepOrphans().catch((error: unknown) => log.warn({ err: error }, 'sweeping orphan uploads failed'));
  users.beforeUserDeleted(async (userId) => {
    const ids = await files.idsOfUser(userId);
    return () => files.removeBytes(ids);
  });
  const folders = createFoldersService({ repo: createFoldersRepo(db), clock });
  const chats = createChatsService({ repo: createChatsRepo(db), attachments: createAttachmentsRepo(db), files, permissions, clock, requireFolder: folders.requireOwnForFiling });
  // Answers a stopped service left half-written are shown as interrupted from the first request on.
  await chats.markCutAnswers();
  const chatLibrary = createChatLibrary({ db, chats, folders, permissions, clock });
  users.setSharedChatOwnerResolver((chatId) => chatLibrary.shares.ownerOfShared(chatId));
  const prompts = createPromptsService({ repo: createPromptsRepo(db), permissions, clock });
  const ratings = createRatingsService({ repo: createRatingsRepo(db), enabled: async () => (await auth.getConfig()).ENABLE_MESSAGE_RATING, clock });

  /** Work to finish before the database closes, run last-registered first. */
  const closers: Array<() => Promise<void>> = [];
  const onShutdown = (closer: () => Promise<void>) => closers.push(closer);
  const shutdown = async () => {
    for (const closer of closers.reverse()) await closer();
  };
  // Registered first, so it runs last: every runner has stopped, what is still held goes back to the queue.
  onShutdown(() => jobs.close());
  onShutdown(async () => pendingSignups.stop());
  onShutdown(async () => offline.close());

  const tasks = createTasksService({ config, runner: createTaskRunner({ config, models, log }) });
  onShutdown(() => builtin.close());
  onShutdown(() => localStt.stop());
  const audio = createAudio({ config, secrets, library: builtin.library, localStt, dataDir: boot.dataDir, log });
  const tools = createTools({ db, config, secrets, clock, log, users: usersRepo, principal: (user) => permissions.principal(user) });
  const toolResolver: ToolResolver = async (input) => {
    const set = await tools.resolve(input);
    const promptCalls: NonNullable<ToolSet['promptCalls']> = async ({ provider, model, messages, signal }) =>
      promptToolCalls({ provider, model, messages, specs: set.specs, template: (await tasks.getConfig()).TOOLS_FUNCTION_CALLING_PROMPT_TEMPLATE, signal });
    return { ...set, promptCalls };
  };
  onShutdown(() => tools.close());
  const code = createCode({ config, files, allowed: (user) => permissions.allows(user, 'features.code_interpreter'), log });
  onShutdown(() => code.close());
  // Image engines pass the offline guard on every request, redirect and ComfyUI socket.
  const images = createImages({
    config,
    secrets,
    files,
    tasks,
    allowed: (user) => permissions.allows(user, 'features.image_generation'),
    log,
    fetch: outboundFetch('image'),
    beforeConnect: (url) => assertOutboundAllowed('image', url),
  });
  users.beforeUserDeleted((userId) => tools.beforeUserDeleted(userId));

  const retrieval = createRetrieval({
    db,
    config,
    secrets,
    providers,
    files,
    realtime: platform.realtime,
    jobs,
    instance: platform.instance,
    dataDir: sharedDir,
    database: { dataDir: boot.dataDir, databaseUrl: boot.databaseUrl },
    clock,
    log,
    localReranker: (options) => builtin.reranker.rerank(options),
  });
  const retrievalSettings = createRetrievalSettings(config, secrets);
  const sweptTemps = sweepSnapshotTemps(path.join(sharedDir, 'indexes'), clock, log).catch((error: unknown) => log.warn({ err: error }, 'sweeping temp snapshot files failed'));
  const knowledge = createKnowledge({ db, retrieval, files, permissions, realtime: platform.realtime, instance: platform.instance, clock, log });
  // Web search: off until an admin turns it on; nothing connects anywhere before that.
  // Every search engine call and page read passes the offline guard first (its own kinds: web-search, web-fetch).
  const webGate = ({ host, purpose }: { host: string; purpose: 'web-engine' | 'web-page' }) =>
    assertOutboundAllowed(purpose === 'web-engine' ? 'web-search' : 'web-fetch', `http://${host.includes(':') ? `[${host}]` : host}/`);
  const web = createWeb({ config, secrets, permissions, log, gate: webGate, test: platform.webTest });
  const webSearch = createWebSearchPlug({ web: web.service, tasks, rank: retrieval.rankTexts, log });
  const completions = createCompletionsService({ models, files, chats, tasks, realtime: platform.realtime, retriever: createRagStage({ knowledge: knowledge.service, tasks }), tools: toolResolver, webSearch, codeInterpreter: code.interpreter, imageGeneration: images.stage, clock, log });
  onShutdown(() => completions.shutdown());
  onShutdown(() => web.service.close());
  onShutdown(() => retrieval.stop());
  users.beforeUserDeleted((userId) => knowledge.beforeUserDeleted(userId));
  const resumedIngestion = retrieval.resume().catch((error: unknown) => log.warn({ err: error }, 'resuming ingestion failed'));
  const graph = createGraph({ db, knowledge, retrieval, config, models, jobs, instance: platform.instance, findUser: (id) => usersRepo.findById(id), fileNames: async (ids) => new Map((await files.findMany(ids)).map((f) => [f.id, f.filename])), realtime: platform.realtime, clock, log });
  onShutdown(() => graph.stop());
  const resumedGraph = graph.resume().catch((error: unknown) => log.warn({ err: error }, 'resuming knowledge graph builds failed'));
  // Jobs an earlier run queued or left unfinished (a re-embedding, too) start now.
  jobs.wakeAll();
  // Registered last, so it runs first: the start-up queries finish before anything stops or the database closes.
  onShutdown(async () => void (await Promise.allSettled([swept, sweptTemps, resumedIngestion, resumedGraph])));

  const notes = createNotes({
    db,
    permissions,
    enabled: async () => (await auth.getConfig()).ENABLE_NOTES,
    findUser: async (id) => {
      const row = await usersRepo.findById(id);
      return row ? { id: row.id, name: row.name, email: row.email, role: row.role, profile_image_url: safeImageUrl(row.profile_image_url) } : undefined;
    },
    realtime: platform.realtime,
    instance: platform.instance,
    clock,
    log,
  });
  completions.useNotes(async (user, ids) => {
    await notes.service.mayUse(user);
    return (await notes.service.attachable(user, ids)).map((note) => ({ source: { id: note.id, name: note.title || 'Untitled note', type: 'note' }, document: [note.md], metadata: [{ source: note.id, name: note.title }] }));
  });
  const memories = createMemories({ db, permissions, embedder: () => retrieval.embeddings.current(), instance: platform.instance, clock, log });
  completions.useMemory(memories.plug);
  // A deleted account's notes and memories went with it (foreign keys): the in-memory copies follow.
  users.afterUserDeleted(async (userId) => {
    memories.indexes.forget(userId);
    await notes.catalog.refresh();
  });

  const channels = createChannels({
    db,
    permissions,
    realtime: platform.realtime,
    files,
    models,
    completions,
    enabled: async () => (await auth.getConfig()).ENABLE_CHANNELS,
    rateLimit: boot.channelRateLimit,
    clock,
    log,
  });
  onShutdown(() => channels.close());

  const gateway = createGateway({ db, clock, log });
  const backups = createBackupService({ repo: createBackupRepo(db), dataDir: boot.dataDir, clock, log });

  const desktop = { handover: createOwnerHandover({ auth, clock }), setup: createFirstRunSetup({ providers, ollamaUrl: boot.ollamaProbeUrl, secretStore: secrets.kind }) };
  return { ...platform, jobs, offline, desktop, hostAllowlist, users, groups, files, chats, ratings, chatLibrary, folders, prompts, tasks, completions, config, permissions, auth, usersRepo, lan, backups, providers, builtin, audio, models, tools, code, images, retrieval, retrievalSettings, knowledge, graph, notes, memories, channels, web, gateway, onShutdown, shutdown };
}

/** Everything routes may use. */
export type Services = Awaited<ReturnType<typeof buildServices>>;
