/** Variables a prompt's content may hold, filled in when the prompt is inserted. */

const VARIABLE = /\{\{\s*([A-Za-z_][\w ]{0,63}?)\s*\}\}/g;

/** Variables filled by the app itself; every other `{{name}}` is asked for. */
export const BUILT_IN = new Set(['CLIPBOARD', 'CURRENT_DATE', 'CURRENT_TIME', 'CURRENT_DATETIME', 'CURRENT_WEEKDAY', 'USER_NAME']);

/** The user-defined variables of a content, in order of first appearance, each once. */
export function userVariables(content: string): string[] {
  const seen: string[] = [];
  for (const m of content.matchAll(VARIABLE)) {
    const name = m[1]!.trim();
    if (!BUILT_IN.has(name) && !seen.includes(name)) seen.push(name);
  }
  return seen;
}

/** Whether the content reads the clipboard. */
export function usesClipboard(content: string): boolean {
  return [...content.matchAll(VARIABLE)].some((m) => m[1]!.trim() === 'CLIPBOARD');
}

const pad = (n: number) => String(n).padStart(2, '0');

/** Values of the built-in variables at `now` (local time, ISO-like so any model reads them). */
export function builtInValues(now: Date, userName: string, clipboard: string): Record<string, string> {
  const date = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
  const time = `${pad(now.getHours())}:${pad(now.getMinutes())}`;
  return {
    CLIPBOARD: clipboard,
    CURRENT_DATE: date,
    CURRENT_TIME: time,
    CURRENT_DATETIME: `${date} ${time}`,
    CURRENT_WEEKDAY: now.toLocaleDateString('en', { weekday: 'long' }),
    USER_NAME: userName,
  };
}

/** The content with every known variable replaced; unknown ones stay as written. */
export function fillPrompt(content: string, values: Record<string, string>): string {
  return content.replace(VARIABLE, (whole, raw: string) => {
    const name = raw.trim();
    return Object.hasOwn(values, name) ? values[name]! : whole;
  });
}

/** The `/word` typed right before the caret (at the start or after whitespace), if any. */
export function commandAt(text: string, caret: number): { start: number; query: string } | null {
  const m = /(^|\s)\/([A-Za-z0-9_-]*)$/.exec(text.slice(0, caret));
  return m ? { start: caret - m[2]!.length - 1, query: m[2]!.toLowerCase() } : null;
}
