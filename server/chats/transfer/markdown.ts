import type { Chat } from '../../contracts/chats';

const ROLE_NAMES = { system: 'System', user: 'User', assistant: 'Assistant' } as const;

/** A chat's shown branch as Markdown: a heading per message, sources listed under answers. */
export function chatToMarkdown(chat: Chat): string {
  const lines: string[] = [`# ${chat.title}`, ''];
  if (chat.tags.length > 0) lines.push(`Tags: ${chat.tags.join(', ')}`, '');
  for (const m of chat.messages) {
    lines.push(`## ${ROLE_NAMES[m.role]}${m.role === 'assistant' && m.model ? ` (${m.model})` : ''}`, '', m.content, '');
    const names = m.sources.map((s) => s.source.name).filter(Boolean);
    if (names.length > 0) lines.push(`Sources: ${[...new Set(names)].map((n, i) => `[${i + 1}] ${n}`).join(' · ')}`, '');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}
