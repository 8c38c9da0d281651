import { decodeLiterals } from '../providers';

/**
 * The text of an answer as it grows. Streamed text mostly arrives as the provider's JSON string
 * literals, which go to the client as they came; they are kept as literals here and decoded in
 * one parse when the text is read (a periodic save, the end of the answer), never per token.
 */
export class AnswerText {
  private decoded = '';
  /** Runs of literals after `decoded`, not decoded yet (kept as they came: one entry per read). */
  private runs: Array<readonly string[]> = [];

  /** Appends decoded text. */
  appendText(text: string): void {
    if (this.runs.length > 0) this.runs.push([JSON.stringify(text)]);
    else this.decoded += text;
  }

  /** Appends text given as JSON string literals (quotes included); the array must not change afterwards. */
  appendLiterals(literals: readonly string[]): void {
    this.runs.push(literals);
  }

  /** Cuts the text to its first `length` characters (what a stopped round wrote past its end). */
  truncate(length: number): void {
    this.decoded = this.text().slice(0, length);
  }

  /** The text so far. */
  text(): string {
    if (this.runs.length > 0) {
      this.decoded += decodeLiterals(this.runs.flat());
      this.runs = [];
    }
    return this.decoded;
  }
}
