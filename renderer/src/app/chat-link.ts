/** The address of a new chat with `modelId` chosen (`/?model=…`, as Open WebUI's links). */
export function chatWith(modelId: string): string {
  return `/?model=${encodeURIComponent(modelId)}`;
}

/** The model a new chat's address asks for (`?model=` or the first of `?models=`), if any. */
export function requestedModel(search: URLSearchParams): string | null {
  return search.get('model') || search.get('models')?.split(',')[0] || null;
}
