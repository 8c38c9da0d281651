/** An entity as an extractor reports it (names are normalised later). */
export interface ExtractedEntity {
  name: string;
  /** person | place | organization | topic, or a model-given kind (lower case). */
  type: string;
}

/** A relation between two entities named in the same chunk. */
export interface ExtractedRelation {
  source: string;
  target: string;
  /** co_occurs (offline) or a short snake_case verb phrase from the model. */
  type: string;
}

/** What one chunk yields. */
export interface ChunkExtraction {
  entities: ExtractedEntity[];
  relations: ExtractedRelation[];
}

/** A chunk to extract from. */
export interface ChunkInput {
  id: number;
  text: string;
}

/** The relation type of the offline extractor: both entities are named in one chunk. */
export const CO_OCCURS = 'co_occurs';

/** Most entities kept per chunk (the most mentioned first), which bounds relations per chunk. */
export const MAX_ENTITIES_PER_CHUNK = 16;
