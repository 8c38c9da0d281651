import { STOPPED_BY_PERSON } from '../../chats';
import { chatStreamBatches, isAbortError, type ChatMessage as ProviderMessage, type ToolCall, type Usage } from '../../providers';
import type { MessageToolStep } from '../../contracts/chats';
import { AnswerText } from '../answer-text';
import type { AnswerOutcome, CodeBlock, PipelineEvent, PreparedCompletion } from '../pipeline-types';
import { runToolCall } from './tool-call';

/** Most rounds of tool calls before the answer is cut off. */
export const MAX_TOOL_ROUNDS = 5;

/** Receives events in order; awaiting it applies the client's backpressure to the provider. */
export type Emit = (event: PipelineEvent) => void | Promise<void>;

function addUsage(a: Usage | undefined, b: Usage): Usage {
  if (!a) return b;
  return { prompt_tokens: a.prompt_tokens + b.prompt_tokens, completion_tokens: a.completion_tokens + b.completion_tokens, total_tokens: a.total_tokens + b.total_tokens };
}

function failureMessage(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  return 'The model provider failed';
}

/** True when a model is set to call tools through the prompt (`params.function_calling: 'prompt'`). */
function wantsPromptCalling(prepared: PreparedCompletion): boolean {
  return prepared.resolved.params.extra?.function_calling === 'prompt';
}

/** The code of an `execute_python` call (`{"code": "…"}`; a bare string is taken as the code too). */
function codeOf(call: ToolCall): string {
  try {
    const args = JSON.parse(call.function.arguments || '{}') as unknown;
    if (typeof args === 'string') return args;
    if (args && typeof args === 'object' && typeof (args as { code?: unknown }).code === 'string') return (args as { code: string }).code;
  } catch {
    // not JSON: the model sent the code itself
    return call.function.arguments;
  }
  return '';
}

/** What the model reads after its code ran in the text (blocks mode): a user turn holding the output. */
function blockOutputMessage(text: string): ProviderMessage {
  return { role: 'user', content: `[Output of the code above, run by the code interpreter]\n${text}\n\n[Continue your answer from here; do not repeat the code.]` };
}

/** True for a literal or text piece that may close a runnable block (a fence's backtick, a tag's `>`). */
function mayCloseBlock(piece: string): boolean {
  return piece.includes('`') || piece.includes('>');
}

/** True for a provider refusing the `tools` field itself (a model without function calling). */
function refusedTools(error: unknown): boolean {
  const status = (error as { status?: unknown })?.status;
  return status === 400 && /tool|function/i.test(error instanceof Error ? error.message : '');
}

/**
 * Prompt-based tool rounds: the model is asked which calls to make, they run, and their results
 * join the conversation as a system message; rounds stop when no new call is asked for.
 * Returns the messages to answer from, or null when the client went away.
 */
async function promptToolRounds(prepared: PreparedCompletion, messages: ProviderMessage[], signal: AbortSignal, emit: Emit, steps: MessageToolStep[]): Promise<ProviderMessage[] | null> {
  const { tools, resolved } = prepared;
  const done = new Set<string>();
  const results: string[] = [];
  for (let round = 0; round < MAX_TOOL_ROUNDS && tools.promptCalls; round += 1) {
    let calls: ToolCall[];
    try {
      calls = await tools.promptCalls({ provider: resolved.provider, model: resolved.providerModelId, messages, signal });
    } catch (error) {
      if (signal.aborted || isAbortError(error)) return null;
      break;
    }
    const fresh = calls.filter((c) => !done.has(`${c.function.name} ${c.function.arguments}`));
    if (fresh.length === 0) break;
    const names = [...new Set(fresh.map((c) => c.function.name))].join(', ');
    await emit({ type: 'status', status: { action: 'tool_calls', description: `Running ${names}`, done: false } });
    for (const call of fresh) {
      done.add(`${call.function.name} ${call.function.arguments}`);
      const ran = await runToolCall(tools, call, signal);
      if (!ran) return null;
      steps.push(ran.step);
      await emit({ type: 'tool_step', step: ran.step });
      results.push(`Tool ${call.function.name} called with ${call.function.arguments || '{}'} answered:\n${ran.text}`);
    }
    await emit({ type: 'status', status: { action: 'tool_calls', description: `Ran ${names}`, done: true } });
    messages = [...prepared.messages, { role: 'system', content: `Results of the tools you asked for; use them to answer.\n\n${results.join('\n\n')}` }];
  }
  return messages;
}

/**
 * Stage 5: streams the answer from the provider, running tool calls between rounds when tools
 * are in play: natively (the provider's `tools`), or through the prompt for models set to
 * `function_calling: 'prompt'` or whose provider refuses `tools`. Never throws for provider
 * trouble: the outcome says the answer was interrupted (client gone, or provider failure) and
 * keeps what arrived. `draft` holds the answer so far while it streams (the literals of a read
 * decoded together as they arrive).
 */
export async function answerStage(prepared: PreparedCompletion, signal: AbortSignal, emit: Emit, draft: AnswerText = new AnswerText()): Promise<AnswerOutcome> {
  const { resolved, params, tools } = prepared;
  const interpreter = prepared.interpreter;
  // The interpreter runs through its tool, or the blocks the model writes (models without native tools).
  let interpreterMode = interpreter?.mode;
  let codeRuns = 0;
  const maxRounds = interpreter ? Math.max(MAX_TOOL_ROUNDS, interpreter.maxRounds + 1) : MAX_TOOL_ROUNDS;
  let messages: ProviderMessage[] = prepared.messages;
  let usage: Usage | undefined;
  let finishReason: string | null = null;
  const toolSteps: MessageToolStep[] = [];
  const stopped = (): AnswerOutcome => ({ content: draft.text(), finishReason, usage, toolSteps, interrupted: { reason: 'client', message: STOPPED_BY_PERSON } });
  let nativeTools = tools.specs.length > 0;
  const client = prepared.clientTools;
  const clientNames = new Set(client?.specs.map((spec) => spec.function.name) ?? []);
  if (nativeTools && tools.promptCalls && wantsPromptCalling(prepared)) {
    nativeTools = false;
    const withResults = await promptToolRounds(prepared, messages, signal, emit, toolSteps);
    if (!withResults) return stopped();
    messages = withResults;
  }

  for (let round = 0; ; round += 1) {
    const toolCalls: ToolCall[] = [];
    const roundStart = draft.text().length;
    const interpreterTool = interpreterMode === 'tool' && codeRuns < (interpreter?.maxRounds ?? 0);
    const watchBlocks = interpreterMode === 'blocks' && codeRuns < (interpreter?.maxRounds ?? 0);
    let block: CodeBlock | undefined;
    // Stopping at a runnable block ends this round's provider request.
    const round$ = new AbortController();
    const stopRound = () => round$.abort();
    signal.addEventListener('abort', stopRound, { once: true });
    try {
      const specs = [...(nativeTools ? tools.specs : []), ...(interpreterTool && interpreter ? [interpreter.tool] : []), ...(client?.specs ?? [])];
      const offered = specs.length > 0 ? { tools: specs, ...(client?.choice !== undefined ? { tool_choice: client.choice } : {}) } : {};
      // One batch per network read: the pieces of a read go out without an async step each.
      const batches = chatStreamBatches(resolved.provider, { model: resolved.providerModelId, messages, ...params, ...offered }, round$.signal);
      reading: for await (const batch of batches) {
        for (const chunk of batch) {
          // Emits are awaited only under backpressure: no microtask hop per piece otherwise.
          if (chunk.literals) {
            draft.appendLiterals(chunk.literals);
            const written = emit({ type: 'literals', literals: chunk.literals });
            if (written) await written;
          }
          if (chunk.content) {
            draft.appendText(chunk.content);
            const written = emit({ type: 'content', text: chunk.content });
            if (written) await written;
          }
          if (chunk.tool_calls) toolCalls.push(...chunk.tool_calls);
          if (chunk.usage) usage = addUsage(usage, chunk.usage);
          if (chunk.finish_reason) finishReason = chunk.finish_reason;
          if (watchBlocks && interpreter && (chunk.literals?.some(mayCloseBlock) || (chunk.content && mayCloseBlock(chunk.content)))) {
            block = interpreter.findBlock(draft.text().slice(roundStart));
            if (block) break reading;
          }
        }
      }
    } catch (error) {
      if (signal.aborted || isAbortError(error)) return stopped();
      if (interpreterTool && round === 0 && !draft.text() && refusedTools(error)) {
        // The model has no native function calling: it writes runnable blocks instead.
        interpreterMode = 'blocks';
        round -= 1;
        continue;
      }
      if (nativeTools && round === 0 && !draft.text() && tools.promptCalls && refusedTools(error)) {
        // The model has no native function calling: ask through the prompt instead.
        nativeTools = false;
        const withResults = await promptToolRounds(prepared, messages, signal, emit, toolSteps);
        if (!withResults) return stopped();
        messages = withResults;
        round -= 1;
        continue;
      }
      return { content: draft.text(), finishReason: 'error', usage, toolSteps, interrupted: { reason: 'provider', message: failureMessage(error) } };
    } finally {
      signal.removeEventListener('abort', stopRound);
      round$.abort();
    }
    // An aborted openai stream ends quietly instead of throwing.
    if (signal.aborted) return stopped();
    if (block && interpreter) {
      // The model wrote code to run: run it, show it, and let the model go on from its output.
      draft.truncate(roundStart + block.end);
      codeRuns += 1;
      await emit({ type: 'status', status: { action: 'code_interpreter', description: 'Running Python', done: false } });
      const ran = await interpreter.run(block.code, `code-${round}`, signal);
      if (signal.aborted) return stopped();
      toolSteps.push(ran.step);
      await emit({ type: 'tool_step', step: ran.step });
      await emit({ type: 'status', status: { action: 'code_interpreter', description: 'Ran Python', done: true } });
      messages = [...messages, { role: 'assistant', content: draft.text().slice(roundStart) }, blockOutputMessage(ran.text)];
      draft.appendText('\n\n');
      await emit({ type: 'content', text: '\n\n' });
      continue;
    }
    // Calls of the caller's own functions end the answer: the caller runs them and asks again.
    const forCaller = toolCalls.filter((call) => clientNames.has(call.function.name));
    if (forCaller.length > 0) {
      await emit({ type: 'tool_calls', calls: forCaller });
      return { content: draft.text(), finishReason: 'tool_calls', usage, toolSteps, toolCalls: forCaller };
    }
    if (toolCalls.length === 0 || !(nativeTools || interpreterTool)) break;
    if (round + 1 >= maxRounds) {
      finishReason = 'length';
      break;
    }

    const names = [...new Set(toolCalls.map((c) => c.function.name))].join(', ');
    await emit({ type: 'status', status: { action: 'tool_calls', description: `Running ${names}`, done: false } });
    messages = [...messages, { role: 'assistant', content: draft.text().slice(roundStart) || null, tool_calls: toolCalls }];
    for (const call of toolCalls) {
      const runsCode = interpreterTool && interpreter && call.function.name === interpreter.tool.function.name;
      if (runsCode) codeRuns += 1;
      const ran = runsCode ? await interpreter.run(codeOf(call), call.id, signal) : await runToolCall(tools, call, signal);
      if (signal.aborted) return stopped();
      if (!ran) return stopped();
      toolSteps.push(ran.step);
      await emit({ type: 'tool_step', step: ran.step });
      messages.push({ role: 'tool', tool_call_id: call.id, name: call.function.name, content: ran.text });
    }
    await emit({ type: 'status', status: { action: 'tool_calls', description: `Ran ${names}`, done: true } });
  }
  return { content: draft.text(), finishReason: finishReason ?? 'stop', usage, toolSteps };
}
