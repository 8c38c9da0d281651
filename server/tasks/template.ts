/** One message as templates see it. */
export interface TemplateMessage {
  role: string;
  content: unknown;
}

/** Values a template may refer to. */
export interface TemplateValues {
  messages?: readonly TemplateMessage[];
  prompt?: string;
  type?: string;
  tools?: string;
  /** "Now", for CURRENT_DATE / CURRENT_TIME. */
  now?: Date;
}

/** The text of a message's content (string, or the text parts of OpenAI content parts). */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((part: unknown) => (part && typeof part === 'object' && typeof (part as { text?: unknown }).text === 'string' ? (part as { text: string }).text : ''))
      .filter(Boolean)
      .join('\n');
  }
  return '';
}

function formatMessages(messages: readonly TemplateMessage[]): string {
  return messages.map((m) => `${m.role.toUpperCase()}: ${contentText(m.content)}`).join('\n');
}

function pickMessages(messages: readonly TemplateMessage[], mode: string | undefined, n: number | undefined): readonly TemplateMessage[] {
  if (n === undefined) return messages;
  switch (mode) {
    case 'START':
      return messages.slice(0, n);
    case 'END':
      return n === 0 ? [] : messages.slice(-n);
    case 'MIDDLETRUNCATE':
      return messages.length <= n ? messages : [...messages.slice(0, Math.ceil(n / 2)), ...messages.slice(messages.length - Math.floor(n / 2))];
    default:
      return messages;
  }
}

function cutText(text: string, mode: string | undefined, n: number | undefined): string {
  if (n === undefined || text.length <= n) return text;
  switch (mode) {
    case 'start':
      return text.slice(0, n);
    case 'end':
      return text.slice(text.length - n);
    case 'middletruncate':
      return `${text.slice(0, Math.ceil(n / 2))}…${text.slice(text.length - Math.floor(n / 2))}`;
    default:
      return text;
  }
}

const PLACEHOLDER = /\{\{\s*([A-Za-z_]+)(?::([A-Za-z]+))?(?::(\d+))?\s*\}\}/g;

/**
 * Expands a task template in one pass (text inserted is never expanded again):
 * `{{MESSAGES}}`, `{{MESSAGES:END:n}}`, `{{MESSAGES:START:n}}`, `{{MESSAGES:MIDDLETRUNCATE:n}}`,
 * `{{prompt}}`, `{{prompt:start:n}}`, `{{prompt:end:n}}`, `{{prompt:middletruncate:n}}`,
 * `{{TYPE}}`, `{{TOOLS}}`, `{{CURRENT_DATE}}`, `{{CURRENT_TIME}}`. Unknown ones are left as written.
 */
export function renderTemplate(template: string, values: TemplateValues): string {
  const now = values.now ?? new Date();
  return template.replace(PLACEHOLDER, (whole, name: string, mode: string | undefined, count: string | undefined) => {
    const n = count === undefined ? undefined : Number(count);
    switch (name) {
      case 'MESSAGES':
        return formatMessages(pickMessages(values.messages ?? [], mode?.toUpperCase(), n));
      case 'prompt':
        return cutText(values.prompt ?? '', mode?.toLowerCase(), n);
      case 'TYPE':
        return values.type ?? 'text';
      case 'TOOLS':
        return values.tools ?? '';
      case 'CURRENT_DATE':
        return now.toISOString().slice(0, 10);
      case 'CURRENT_TIME':
        return now.toISOString().slice(11, 19);
      default:
        return whole;
    }
  });
}
