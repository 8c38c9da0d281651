/** Parses a JSON text column, falling back when it is empty or unreadable. */
export function readJson<T>(text: string | null | undefined, fallback: T): T {
  if (text === null || text === undefined || text === '') return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

/** Serialises a value for a JSON text column. */
export function writeJson(value: unknown): string {
  return JSON.stringify(value ?? null);
}
