import { useSyncExternalStore } from 'react';

/** What can be previewed: an HTML page, an SVG picture, a Mermaid diagram. */
export type ArtifactKind = 'html' | 'svg' | 'mermaid';

/** The artifact open in the side panel: which conversation, which kind, which version's code. */
export interface OpenArtifact {
  /** The conversation it belongs to (its versions are the same kind's blocks in that conversation). */
  conversation: string;
  kind: ArtifactKind;
  code: string;
}

/** The kind of a fenced block's language, when it can be previewed. */
export function artifactKind(lang: string | undefined, code: string): ArtifactKind | undefined {
  const l = (lang ?? '').toLowerCase();
  if (l === 'html' || l === 'htm') return 'html';
  if (l === 'svg' || (l === 'xml' && /^\s*(<\?xml[^>]*>\s*)?<svg[\s>]/i.test(code))) return 'svg';
  if (l === 'mermaid') return 'mermaid';
  return undefined;
}

/** Every block of `kind` in these answers, oldest first: the versions of an artifact as the model revised it. */
export function versionsIn(answers: readonly string[], kind: ArtifactKind): string[] {
  const out: string[] = [];
  const fence = /^ {0,3}(`{3,}|~{3,})[ \t]*([\w-]+)[^\n]*\n([\s\S]*?)\n {0,3}\1[`~]*[ \t]*$/gm;
  for (const text of answers) {
    for (const match of text.matchAll(fence)) {
      const code = match[3]!;
      if (artifactKind(match[2], code) === kind && !out.includes(code)) out.push(code);
    }
  }
  return out;
}

let open: OpenArtifact | null = null;
const listeners = new Set<() => void>();

/** Opens an artifact in the side panel (or replaces the one open). */
export function openArtifact(next: OpenArtifact | null): void {
  open = next;
  listeners.forEach((l) => l());
}

/** The artifact open in the side panel, re-rendering on change. */
export function useOpenArtifact(): OpenArtifact | null {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => open,
  );
}
