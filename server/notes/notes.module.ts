import type { Role } from '../contracts/auth';
import type { NoteEvent } from '../contracts/notes';
import type { Clock } from '../platform/clock';
import { dialectOf, type Db } from '../platform/db/knex';
import { watchTableChanges } from '../platform/db/table-changes';
import type { Logger } from '../platform/log';
import type { PermissionsService } from '../permissions';
import type { RealtimeHub } from '../realtime';
import { createNotesCatalog } from './notes-catalog';
import { createNotesRepo } from './notes.repo';
import { createNotesService, type NoteAuthorInfo } from './notes.service';

/** What the notes domain is built from. */
export interface NotesModuleDeps {
  db: Db;
  permissions: PermissionsService;
  /** Whether ENABLE_NOTES is on. */
  enabled(): Promise<boolean>;
  findUser(id: string): Promise<(NoteAuthorInfo & { role: Role }) | undefined>;
  realtime: Pick<RealtimeHub, 'defineTopic' | 'emitToTopic'>;
  /** This instance's name on the database (its writes are not followed back). */
  instance: string;
  clock: Clock;
  log: Logger;
}

/**
 * The notes domain: the service, its search catalog, live saves on the socket topic
 * `note:<id>` (event `note-events`, sent only to followers who may still read the note) and, on
 * PostgreSQL, other instances' note writes followed into the catalog.
 */
export function createNotes(deps: NotesModuleDeps) {
  const repo = createNotesRepo(deps.db);
  const catalog = createNotesCatalog(repo);
  const publish = (event: NoteEvent) => {
    const topic = `note:${event.id}`;
    deps.realtime.emitToTopic(topic, 'note-events', event, { recheck: !event.deleted }).catch((error: unknown) => deps.log.warn({ err: error }, 'sending a note event failed'));
  };
  const service = createNotesService({ repo, catalog, permissions: deps.permissions, enabled: deps.enabled, findUser: deps.findUser, publish, clock: deps.clock });
  deps.realtime.defineTopic('note', async (userId, id) => {
    const user = await deps.findUser(userId);
    return user !== undefined && user.role !== 'pending' && (await service.mayWatch(user, id));
  });
  if (dialectOf(deps.db) === 'postgres') {
    watchTableChanges(deps.db, (payload) => {
      const [table, writer, ...rest] = payload.split('|');
      if (table !== 'notes' || writer === deps.instance) return;
      catalog.refresh(writer === undefined ? undefined : rest.join('|')).catch((error: unknown) => deps.log.warn({ err: error }, 'following a note change failed'));
    });
  }
  return { service, catalog };
}
export type Notes = ReturnType<typeof createNotes>;
