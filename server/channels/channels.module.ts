import type { CompletionsService } from '../completions';
import type { FilesService } from '../files';
import type { Models } from '../models';
import type { Clock } from '../platform/clock';
import type { Db } from '../platform/db/knex';
import { watchTableChanges } from '../platform/db/table-changes';
import type { Logger } from '../platform/log';
import type { PermissionsService } from '../permissions';
import type { RealtimeHub } from '../realtime';
import { createChannelAccess } from './channel-access';
import { createChannelEvents } from './channel-events';
import { createChannelLive } from './channel-live';
import { createChannelsRepo } from './channels.repo';
import { channelsRoutes } from './channels.routes';
import { createChannelsService } from './channels.service';
import { createMessagePresenter } from './message-context';
import { createMessageClock } from './message-time';
import { createMessagesRepo } from './messages.repo';
import { createMessagesService } from './messages.service';
import { createModelAnswers } from './model-answers';
import { createChannelRateLimits } from './rate-limits';

export interface ChannelsDeps {
  db: Db;
  permissions: PermissionsService;
  realtime: RealtimeHub;
  files: FilesService;
  models: Pick<Models, 'available'>;
  completions: Pick<CompletionsService, 'prepare' | 'run'>;
  /** ENABLE_CHANNELS, as the admin set it. */
  enabled: () => Promise<boolean>;
  /** Channel messages per minute per person (PARLEY_CHANNEL_RATE_LIMIT); 0 = no limit. */
  rateLimit: number;
  clock: Clock;
  log: Logger;
}

/**
 * The channels domain: rooms where the office talks, with models in the conversation. HTTP on
 * Open WebUI's paths (`routes()`), live `channel-events` over socket.io with access-checked
 * rooms, mentions, `@model` answers through the completion pipeline. `close()` stops answers
 * still streaming (saved as interrupted) before the database closes.
 */
export function createChannels(deps: ChannelsDeps) {
  const repo = createChannelsRepo(deps.db);
  const messagesRepo = createMessagesRepo(deps.db);
  const access = createChannelAccess({ repo, permissions: deps.permissions, enabled: deps.enabled });
  const events = createChannelEvents(deps.realtime);
  const present = createMessagePresenter(messagesRepo, deps.clock);
  const nextMs = createMessageClock(deps.clock);
  const live = createChannelLive({ realtime: deps.realtime, access, watch: (onChange) => void watchTableChanges(deps.db, onChange), log: deps.log });
  const answers = createModelAnswers({ repo: messagesRepo, events, present, completions: deps.completions, nextMs, log: deps.log });
  const deleteFiles = async (ids: readonly string[]) => {
    for (const row of await deps.files.findMany(ids)) await deps.files.delete(row);
  };
  const channels = createChannelsService({ repo, messages: messagesRepo, access, events, deleteFiles, resync: () => live.syncAll(), clock: deps.clock });
  const messages = createMessagesService({
    repo: messagesRepo,
    access,
    events,
    present,
    limits: createChannelRateLimits(deps.rateLimit),
    files: deps.files,
    permissions: deps.permissions,
    usableModels: async (caller) => (await deps.models.available(caller)).map((m) => ({ id: m.id, name: m.name })),
    stopAnswer: (id) => answers.stop(id),
    nextMs,
    clock: deps.clock,
  });
  messages.onModelMention((input) => answers.start(input));
  return {
    access,
    channels,
    messages,
    answers,
    routes: () => channelsRoutes({ access, channels, messages, files: deps.files }),
    async close(): Promise<void> {
      live.close();
      await answers.close();
    },
  };
}
export type Channels = ReturnType<typeof createChannels>;
