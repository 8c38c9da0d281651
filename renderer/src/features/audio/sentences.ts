/**
 * Cuts a text for read-aloud: by sentence (`punctuation`), by paragraph, or not at all. The first
 * piece is spoken while the rest are synthesized, so it is kept short.
 */
export function splitForSpeech(text: string, splitOn: string): string[] {
  const clean = text.replace(/\s+\n/g, '\n').trim();
  if (!clean) return [];
  if (splitOn === 'none') return [clean];
  const paragraphs = clean.split(/\n{2,}/).map((p) => p.replace(/\s+/g, ' ').trim()).filter(Boolean);
  if (splitOn === 'paragraphs') return paragraphs;
  return paragraphs.flatMap((p) => p.match(/[^.!?。！？]+(?:[.!?。！？]+["'”’)\]]*|$)/g)?.map((s) => s.trim()).filter(Boolean) ?? [p]);
}
