/** A change another instance made, as announced on PostgreSQL (migration 202611270102). */
export interface CollectionChange {
  /** `chunks`: a collection's chunks or language (its search index); `collection_files`: a knowledge base's file list; `graph_state`: its knowledge graph. */
  table: 'chunks' | 'collection_files' | 'graph_state';
  /** The collection (`chunks`) or knowledge base (the others); undefined: any may have changed (the feed was down). */
  id?: string;
}

/** The database's change notices (`<table>|<writer>|…`, nothing but the table when the feed was down): PostgreSQL's, absent on SQLite. */
export type ChangeFeed = (listener: (payload: string) => void) => void;

const TABLES = new Set(['chunks', 'collection_files', 'graph_state']);

/**
 * Calls `listener` for changes to collections made by other writers than this instance (named
 * `instance`, its connections' application_name): another instance's ingestion, removal,
 * re-embedding or language change. Only PostgreSQL announces them (one SQLite instance makes
 * every change itself: no feed); when the feed was down, every collection is reported (no id).
 */
export function followCollectionChanges(feed: ChangeFeed | undefined, instance: string | undefined, listener: (change: CollectionChange) => void): void {
  feed?.((payload) => {
    const [table, writer, ...rest] = payload.split('|');
    if (!table || !TABLES.has(table)) return;
    const kind = table as CollectionChange['table'];
    if (writer === undefined) return listener({ table: kind });
    if (writer === instance) return;
    const id = rest.join('|');
    if (id) listener({ table: kind, id });
  });
}
