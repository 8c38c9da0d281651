import type { CodeBlock } from '../completions';

/** A fenced block in Python (```python, ```py, ```python3), closed by a fence at least as long. */
const FENCE = /^( {0,3})(`{3,}|~{3,})[ \t]*(python3?|py)[ \t]*\r?\n([\s\S]*?)\r?\n {0,3}\2[`~]*[ \t]*(?:\r?\n|$)/m;
/** Open WebUI's tag: `<code_interpreter type="code" lang="python">…</code_interpreter>`. */
const TAG = /<code_interpreter\b[^>]*>([\s\S]*?)<\/code_interpreter>/;

/**
 * The first complete runnable block in `text`: a fenced Python block or Open WebUI's
 * `<code_interpreter>` tag; `end` is where the block (and its closing line) ends. A block still
 * being written (no closing fence yet) is not complete.
 */
export function findCodeBlock(text: string): CodeBlock | undefined {
  const fence = FENCE.exec(text);
  const tag = TAG.exec(text);
  const candidates: CodeBlock[] = [];
  if (fence) candidates.push({ code: fence[4]!, end: fence.index + fence[0].replace(/\r?\n$/, '').length });
  if (tag) candidates.push({ code: tag[1]!.replace(/^\s*```(?:python3?|py)?[ \t]*\r?\n/, '').replace(/\r?\n```\s*$/, ''), end: tag.index + tag[0].length });
  const first = candidates.sort((a, b) => a.end - b.end)[0];
  return first && first.code.trim() ? { code: first.code, end: first.end } : undefined;
}
