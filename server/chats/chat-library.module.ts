import type { FoldersService } from '../folders';
import type { Clock } from '../platform/clock';
import type { Db } from '../platform/db/knex';
import type { PermissionsService } from '../permissions';
import { createAttachmentsRepo } from './attachments.repo';
import { createChatOrganizingService } from './chat-organizing.service';
import { createChatsRepo } from './chats.repo';
import type { ChatsService } from './chats.service';
import { createChatSearchRepo } from './search/chat-search.repo';
import { createChatSearchService } from './search/chat-search.service';
import { createSharesRepo } from './share/shares.repo';
import { createSharesService } from './share/shares.service';
import { createTransferService } from './transfer/transfer.service';

/** Builds search, organisation (tags, folders, archive-all), share links and export/import over the chats. */
export function createChatLibrary(deps: { db: Db; chats: ChatsService; folders: FoldersService; permissions: PermissionsService; clock: Clock }) {
  const { db, chats, folders, permissions, clock } = deps;
  const repo = createChatsRepo(db);
  return {
    search: createChatSearchService({ repo: createChatSearchRepo(db) }),
    organizing: createChatOrganizingService({ repo, chats, requireFolder: folders.requireOwnForFiling }),
    shares: createSharesService({ repo: createSharesRepo(db), chats, permissions, clock }),
    transfer: createTransferService({ repo, attachments: createAttachmentsRepo(db), chats, permissions, folderName: folders.nameOf, folderPath: folders.pathOf, ensureFolder: folders.ensurePath, clock }),
  };
}
export type ChatLibrary = ReturnType<typeof createChatLibrary>;
