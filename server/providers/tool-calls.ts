import type { ToolCall } from './provider';

/** One streamed tool-call fragment in the OpenAI form. */
export interface ToolCallDelta {
  index: number;
  id?: string;
  type?: string;
  function?: { name?: string; arguments?: string };
}

/**
 * Assembles OpenAI tool-call deltas (id and name first, then argument fragments, keyed by
 * `index`) into complete calls.
 */
export function createToolCallAccumulator() {
  const calls = new Map<number, { id: string; name: string; arguments: string }>();
  return {
    add(deltas: readonly ToolCallDelta[]): void {
      for (const delta of deltas) {
        const call = calls.get(delta.index) ?? { id: '', name: '', arguments: '' };
        if (delta.id) call.id = delta.id;
        if (delta.function?.name) call.name += delta.function.name;
        if (delta.function?.arguments) call.arguments += delta.function.arguments;
        calls.set(delta.index, call);
      }
    },
    /** The complete calls so far, in index order; empties the accumulator. */
    take(): ToolCall[] {
      const done = [...calls.entries()]
        .sort(([a], [b]) => a - b)
        .map(([index, call]) => ({
          id: call.id || `call_${index}`,
          type: 'function' as const,
          function: { name: call.name, arguments: call.arguments || '{}' },
        }));
      calls.clear();
      return done;
    },
  };
}

/** An Ollama tool call: arguments are an object, not a JSON string, and there is no id. */
export interface OllamaToolCall {
  function: { name: string; arguments: Record<string, unknown> | string };
}

/** Converts Ollama tool calls to the OpenAI form (JSON-string arguments, generated ids). */
export function fromOllamaToolCalls(calls: readonly OllamaToolCall[], offset = 0): ToolCall[] {
  return calls.map((call, i) => ({
    id: `call_${offset + i}`,
    type: 'function' as const,
    function: {
      name: call.function.name,
      arguments: typeof call.function.arguments === 'string' ? call.function.arguments : JSON.stringify(call.function.arguments ?? {}),
    },
  }));
}

/** Converts OpenAI-form tool calls to the Ollama form (object arguments). Unparseable JSON becomes `{}`. */
export function toOllamaToolCalls(calls: readonly ToolCall[]): Array<{ function: { name: string; arguments: Record<string, unknown> } }> {
  return calls.map((call) => ({ function: { name: call.function.name, arguments: parseArguments(call.function.arguments) } }));
}

function parseArguments(text: string): Record<string, unknown> {
  try {
    const value = JSON.parse(text) as unknown;
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** A tool call's string argument `name`, trimmed; throws a message for the model when the arguments are not JSON or it is missing or empty. */
export function toolCallArgument(call: ToolCall, name: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(call.function.arguments || '{}');
  } catch {
    throw new Error('The arguments are not valid JSON');
  }
  const value = parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>)[name] : undefined;
  if (typeof value !== 'string' || value.trim() === '') throw new Error(`Missing the "${name}" argument`);
  return value.trim();
}
