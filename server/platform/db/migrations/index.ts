import type { Knex } from 'knex';
import * as createUsers from './202611220001-create-users';
import * as createAuths from './202611220002-create-auths';
import * as createApiKeys from './202611220003-create-api-keys';
import * as createConfig from './202611220004-create-config';
import * as createGroups from './202611220005-create-groups';
import * as createRevokedTokens from './202611220006-create-revoked-tokens';
import * as createChats from './202611220301-create-chats';
import * as createFiles from './202611220302-create-files';
import * as createModels from './202611220201-create-models';
import * as createTools from './202611220501-create-tools';
import * as createKnowledge from './202611220401-create-knowledge';
import * as createKnowledgeGraph from './202611220601-create-knowledge-graph';
import * as graphStateSizes from './202611220602-graph-state-sizes';
import * as createIssuedTokens from './202611231500-create-issued-tokens';
import * as createMessageRatings from './202611231600-create-message-ratings';
import * as chatOrganizing from './202611231700-chat-organizing';
import * as createBuiltinModels from './202611232100-create-builtin-models';
import * as collectionLanguages from './202611251401-collection-languages';
import * as messageToolSteps from './202611251600-message-tool-steps';
import * as createApiUsage from './202611251900-create-api-usage';
import * as indexStreamingAnswers from './202611252001-index-streaming-answers';
import * as postgresRowOrder from './202611260101-postgres-row-order';
import * as postgresChatSearch from './202611260102-postgres-chat-search';
import * as postgresTableChangeNotices from './202611260601-postgres-table-change-notices';
import * as postgresRealtimeAttachments from './202611260602-postgres-realtime-attachments';
import * as createJobs from './202611270101-create-jobs';
import * as postgresCollectionChangeNotices from './202611270102-postgres-collection-change-notices';
import * as chatMessageChats from './202611270301-chat-message-chats';
import * as jobProgress from './202611270701-job-progress';
import * as postgresSearchQualifiedNames from './202611281201-postgres-search-qualified-names';
import * as createNotes from './202611281301-create-notes';
import * as createMemories from './202611281302-create-memories';
import * as postgresNotesMemoriesChangeNotices from './202611281303-postgres-notes-memories-change-notices';
import * as createChannels from './202611282001-create-channels';
import * as createAppVersions from './202611282101-create-app-versions';
import * as promptsPerOwner from './202611290101-prompts-per-owner';

/** A migration: append-only, named `YYYYMMDDHHmm-what-changes`. */
export interface Migration {
  up(knex: Knex): Promise<void>;
  down(knex: Knex): Promise<void>;
}

/** A list of named migrations, in the order they run. */
export type MigrationList = ReadonlyArray<readonly [string, Migration]>;

/**
 * Every migration, in order. A static list (not a folder scan) so bundlers keep them all.
 * Add new ones at the end; never edit one that has landed. Every new migration must extend the
 * upgrade test (test/integration/upgrades.test.ts: its COVERED list, and for one that moves data
 * the population and fingerprint under test/upgrades/). All of them run in one transaction: none
 * may turn transactions off (server/upgrades).
 */
export const MIGRATIONS: MigrationList = [
  ['202611220001-create-users', createUsers],
  ['202611220002-create-auths', createAuths],
  ['202611220003-create-api-keys', createApiKeys],
  ['202611220004-create-config', createConfig],
  ['202611220005-create-groups', createGroups],
  ['202611220006-create-revoked-tokens', createRevokedTokens],
  ['202611220301-create-chats', createChats],
  ['202611220302-create-files', createFiles],
  ['202611220201-create-models', createModels],
  ['202611220501-create-tools', createTools],
  ['202611220401-create-knowledge', createKnowledge],
  ['202611220601-create-knowledge-graph', createKnowledgeGraph],
  ['202611220602-graph-state-sizes', graphStateSizes],
  ['202611231500-create-issued-tokens', createIssuedTokens],
  ['202611231600-create-message-ratings', createMessageRatings],
  ['202611231700-chat-organizing', chatOrganizing],
  ['202611232100-create-builtin-models', createBuiltinModels],
  ['202611251401-collection-languages', collectionLanguages],
  ['202611251600-message-tool-steps', messageToolSteps],
  ['202611251900-create-api-usage', createApiUsage],
  ['202611252001-index-streaming-answers', indexStreamingAnswers],
  ['202611260101-postgres-row-order', postgresRowOrder],
  ['202611260102-postgres-chat-search', postgresChatSearch],
  ['202611260601-postgres-table-change-notices', postgresTableChangeNotices],
  ['202611260602-postgres-realtime-attachments', postgresRealtimeAttachments],
  ['202611270101-create-jobs', createJobs],
  ['202611270102-postgres-collection-change-notices', postgresCollectionChangeNotices],
  ['202611270301-chat-message-chats', chatMessageChats],
  ['202611270701-job-progress', jobProgress],
  ['202611281201-postgres-search-qualified-names', postgresSearchQualifiedNames],
  ['202611281301-create-notes', createNotes],
  ['202611281302-create-memories', createMemories],
  ['202611281303-postgres-notes-memories-change-notices', postgresNotesMemoriesChangeNotices],
  ['202611282001-create-channels', createChannels],
  ['202611282101-create-app-versions', createAppVersions],
  ['202611290101-prompts-per-owner', promptsPerOwner],
];

/** knex migration source over a static list (every migration unless a test gives its own). */
export function migrationSourceOf(list: MigrationList): Knex.MigrationSource<readonly [string, Migration]> {
  return {
    getMigrations: async () => [...list],
    getMigrationName: (entry) => entry[0],
    getMigration: async (entry) => entry[1],
  };
}

/** knex migration source over the static list. */
export const migrationSource = migrationSourceOf(MIGRATIONS);
