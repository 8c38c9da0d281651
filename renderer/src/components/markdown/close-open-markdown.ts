/**
 * Display help for an answer that is still streaming: the text so far often ends inside emphasis,
 * strike-through or inline code whose closing marker has not arrived (`**bold`), and markdown
 * would show the raw markers until it does. This closes what the last paragraph left open (and
 * drops an opener with nothing after it yet), so the words show as they will once finished. Only
 * for display; the stored text is never changed. An unclosed code fence is left alone: markdown
 * already shows the rest of the text as code.
 */
export function closeOpenMarkdown(text: string): string {
  const start = lastBlockStart(text);
  if (start === null) return text;
  const open = openMarkers(text, start);
  if (open.length === 0) return text;
  let out = text;
  // Innermost first, so the closers nest; trailing spaces would stop a closer from closing.
  for (const marker of open.reverse()) {
    const body = out.slice(marker.at + marker.text.length);
    if (body.trim() === '') out = out.slice(0, marker.at);
    else out = `${out.trimEnd()}${marker.text}`;
  }
  return out;
}

interface Marker {
  /** The opening run as written (`**`, `_`, `~~`, a run of backticks). */
  text: string;
  at: number;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** Where the last paragraph starts (after the last blank line), or null while a code fence is open. */
function lastBlockStart(text: string): number | null {
  let fence: string | null = null;
  let start = 0;
  let at = 0;
  for (const line of text.split('\n')) {
    const mark = FENCE.exec(line)?.[1];
    if (fence === null && mark) fence = mark;
    else if (fence !== null && mark && mark[0] === fence[0] && mark.length >= fence.length && line.trim() === mark) {
      fence = null;
      start = at + line.length + 1;
    } else if (fence === null && line.trim() === '') start = at + line.length + 1;
    at += line.length + 1;
  }
  return fence === null ? Math.min(start, text.length) : null;
}

const WORD = /[\p{L}\p{N}]/u;
const SPACE = /\s/;

/** The emphasis, strike-through and code markers opened in `text` from `start` on and not closed, outermost first. */
function openMarkers(text: string, start: number): Marker[] {
  const stack: Marker[] = [];
  for (let i = start; i < text.length; ) {
    const ch = text[i]!;
    if (ch === '\\') {
      i += 2;
      continue;
    }
    let end = i;
    while (text[end] === ch) end += 1;
    const run = text.slice(i, end);
    if (ch === '`') {
      // A code span ends at the next run of exactly as many backticks; its text is literal.
      const closing = new RegExp(`(?<!\`)${run}(?!\`)`, 'g');
      closing.lastIndex = end;
      const close = closing.exec(text);
      if (!close) return [...stack, { text: run, at: i }];
      i = close.index + run.length;
      continue;
    }
    if (ch === '*' || ch === '_' || (ch === '~' && run.length === 2)) {
      const before = text[i - 1] ?? ' ';
      // At the very end the next character has not arrived yet: the run may be an opener.
      const next = text[end] ?? 'x';
      let left = run.length;
      if (!SPACE.test(before)) {
        // Closes what it can of the same marker on top of the stack.
        while (left > 0 && stack.at(-1)?.text[0] === ch) {
          const top = stack.at(-1)!;
          const used = Math.min(left, top.text.length);
          if (used === top.text.length) stack.pop();
          else top.text = top.text.slice(used);
          left -= used;
        }
      }
      if (left > 0 && !SPACE.test(next) && !WORD.test(before)) stack.push({ text: ch.repeat(left), at: end - left });
    }
    i = end;
  }
  return stack;
}
