/** Answer of GET /api/v1/connections/status: enabled connections whose models could not be listed. */
export interface ConnectionStatus {
  unreachable: Array<{
    /** `compat` (OpenAI-compatible), `local` (Ollama-style) or `builtin` (built-in models). */
    kind: 'compat' | 'local' | 'builtin';
    /** Its place in the connection list (0-based). */
    index: number;
    /** Its base URL: shown to admins only. */
    url?: string;
    /** Why, for admins only. */
    reason?: string;
  }>;
}
