import { uniqueTags } from '../tag-names';

/** A message read from any export format, before it gets Parley ids. */
export interface ImportedNode {
  /** The id in the source file (only used to link parents). */
  id: string;
  /** The source id of its parent; null for a root. */
  parent: string | null;
  /** Null: the node is kept only as a link (skipped content), its children hang on its parent. */
  role: 'system' | 'user' | 'assistant' | null;
  content: string;
  model: string | null;
  created_at: number | null;
  status?: 'complete' | 'interrupted';
  error?: string | null;
  usage?: unknown;
  sources?: unknown[];
  files?: unknown[];
  follow_ups?: string[];
  /** The answer's tool calls (Parley exports). */
  tool_steps?: unknown[];
}

/** A chat read from any export format. */
export interface ImportedChat {
  /** The chat's id in the source file (a re-import of the same chat is recognised by it); null when it has none. */
  source_id: string | null;
  title: string;
  created_at: number | null;
  updated_at: number | null;
  pinned: boolean;
  archived: boolean;
  tags: string[];
  folder_name: string | null;
  /** Folder names from the top level down ([] or a one-name path from `folder_name`). */
  folder_path: string[];
  /** Source id of the message shown; null = the newest leaf. */
  current: string | null;
  nodes: ImportedNode[];
  /** Messages skipped by the reader itself (with their reasons in `notes`). */
  skipped: number;
  notes: string[];
}

/** Why a whole chat cannot be read. */
export class ImportSkip extends Error {}

/** A plain object, or undefined. */
export function obj(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** A string, or the fallback. */
export function str(value: unknown, fallback = ''): string {
  return typeof value === 'string' ? value : fallback;
}

/** Epoch seconds from seconds, milliseconds or a float; null when not a number. */
export function seconds(value: unknown): number | null {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) return null;
  return Math.floor(value > 1e12 ? value / 1000 : value);
}

/** Tags from strings or `{name}` objects, in the case they were written, unique whatever their case. */
export function tagList(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return uniqueTags(value.map((t) => (typeof t === 'string' ? t : str(obj(t)?.name))).map((t) => t.slice(0, 100))).slice(0, 50);
}

/** A source chat id: a non-empty string of at most 200 characters, else null. */
export function sourceId(...values: unknown[]): string | null {
  for (const v of values) if (typeof v === 'string' && v.trim() && v.length <= 200) return v.trim();
  return null;
}
