import { isCopyableLiteral } from './json-literals';

/** A string with storage of its own, not a view into the network read it was cut from. */
function ownCopy(text: string): string {
  return Buffer.from(text, 'utf8').toString('utf8');
}

/** The index of the closing quote of the JSON string literal opening at `start`, or -1. */
function literalEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c === 92) i += 1;
    else if (c === 34) return i;
  }
  return -1;
}

/** The start of the string value of `"key":` when the key occurs exactly once, else -1. */
function valueStart(line: string, key: string): number {
  const at = line.indexOf(key);
  if (at < 0 || at !== line.lastIndexOf(key)) return -1;
  const start = at + key.length;
  return line.charCodeAt(start) === 34 ? start : -1;
}

/** What a line of text is made of around its two string values (`created_at` may be absent). */
interface Shape {
  head: string;
  /** Between the end of `created_at`'s value and the start of the content literal; undefined when the line has no `created_at`. */
  middle: string | undefined;
  tail: string;
}

/**
 * Reads the text lines of an Ollama-style NDJSON stream without parsing them: a provider streams
 * text as lines that differ only in their time stamp (`created_at`) and their text, so after
 * one such line was parsed (`learn`), a line that is the same around a different time stamp
 * (no escapes) and a different string literal is that literal, given back as it came (to be
 * copied into the outgoing frame). Returns undefined for any other line: the caller parses it.
 */
export function createTextLineReader(): { read(line: string): string | undefined; learn(line: string, content: string | undefined): void } {
  let shape: Shape | undefined;

  return {
    /** Remembers the shape of a line that carried text and nothing else (the caller checked the rest). */
    learn(line, content) {
      shape = undefined;
      if (typeof content !== 'string' || content === '') return;
      const contentStart = valueStart(line, '"content":');
      const contentEnd = contentStart < 0 ? -1 : literalEnd(line, contentStart);
      if (contentEnd < 0 || JSON.parse(line.slice(contentStart, contentEnd + 1)) !== content) return;
      const tail = ownCopy(line.slice(contentEnd + 1));
      const stampStart = valueStart(line, '"created_at":');
      if (stampStart < 0) {
        if (line.includes('"created_at"')) return;
        shape = { head: ownCopy(line.slice(0, contentStart)), middle: undefined, tail };
        return;
      }
      const stampEnd = literalEnd(line, stampStart);
      if (stampEnd < 0 || stampEnd > contentStart) return;
      shape = { head: ownCopy(line.slice(0, stampStart + 1)), middle: ownCopy(line.slice(stampEnd, contentStart)), tail };
    },

    read(line) {
      if (!shape) return undefined;
      const { head, middle, tail } = shape;
      const length = line.length;
      if (length < head.length + tail.length + 2 || line.slice(0, head.length) !== head || line.slice(length - tail.length) !== tail) return undefined;
      let contentStart = head.length;
      if (middle !== undefined) {
        // The time stamp: no escapes, then the middle as learned.
        const stampEnd = line.indexOf('"', head.length);
        if (stampEnd < 0 || line.lastIndexOf('\\', stampEnd) >= head.length) return undefined;
        contentStart = stampEnd + middle.length;
        if (line.slice(stampEnd, contentStart) !== middle) return undefined;
      }
      const contentEnd = length - tail.length;
      if (contentEnd - contentStart < 2) return undefined;
      const literal = line.slice(contentStart, contentEnd);
      return isCopyableLiteral(literal) ? literal : undefined;
    },
  };
}
