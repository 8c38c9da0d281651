import type { ChatMessage, Provider, ToolCall, ToolSpec } from '../providers';
import { DEFAULT_TOOLS_FUNCTION_CALLING_PROMPT, extractJsonField, renderTemplate } from '../tasks';

/** The tools prompt: TOOLS_FUNCTION_CALLING_PROMPT_TEMPLATE (or Parley's default) with `{{TOOLS}}` filled in. */
export function renderToolsPrompt(template: string, specs: readonly ToolSpec[], messages: readonly ChatMessage[] = []): string {
  const tools = JSON.stringify(specs.map((s) => s.function), null, 1);
  return renderTemplate(template.trim() || DEFAULT_TOOLS_FUNCTION_CALLING_PROMPT, { tools, messages: messages.map((m) => ({ role: m.role, content: m.content })) });
}

/** What a prompt-based tool round needs. */
export interface PromptToolCallsInput {
  provider: Provider;
  model: string;
  messages: ChatMessage[];
  specs: ToolSpec[];
  /** TOOLS_FUNCTION_CALLING_PROMPT_TEMPLATE; empty means Parley's default. */
  template: string;
  signal?: AbortSignal;
}

/**
 * Prompt-based function calling for models without native tools: asks the model (without
 * `tools`) which calls to make, with the template as the system message, and reads
 * `{"tool_calls": [{"name", "parameters"}]}` from the answer. Unknown names are dropped;
 * an unreadable answer means no calls.
 */
export async function promptToolCalls(input: PromptToolCallsInput): Promise<ToolCall[]> {
  if (input.specs.length === 0) return [];
  const conversation = input.messages.filter((m) => m.role !== 'system' && m.role !== 'tool' && !m.tool_calls);
  const answer = await input.provider.chat(
    { model: input.model, messages: [{ role: 'system', content: renderToolsPrompt(input.template, input.specs, conversation) }, ...conversation.slice(-10)] },
    input.signal,
  );
  const raw = extractJsonField(answer.content, 'tool_calls');
  if (!Array.isArray(raw)) return [];
  const known = new Set(input.specs.map((s) => s.function.name));
  const calls: ToolCall[] = [];
  for (const [i, item] of raw.entries()) {
    if (!item || typeof item !== 'object') continue;
    const { name, parameters, arguments: args } = item as { name?: unknown; parameters?: unknown; arguments?: unknown };
    if (typeof name !== 'string' || !known.has(name)) continue;
    const value = parameters ?? args ?? {};
    calls.push({ id: `call_prompt_${i}`, type: 'function', function: { name, arguments: typeof value === 'string' ? value : JSON.stringify(value) } });
  }
  return calls.slice(0, 10);
}
