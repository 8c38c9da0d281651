import { decodeLiterals } from '../providers/json-literals';

/**
 * The text of an answer as it grows. Streamed text mostly arrives as the provider's JSON string
 * literals, which go to the client as they came; they are kept as literals here and decoded in
 * one parse when the text is read (a periodic save, the end of the answer), never per token.
 */
export class AnswerText {
  private decoded = '';
  /** Literals after `decoded`, not decoded yet. */
  private literals: string[] = [];

  /** Appends decoded text. */
  appendText(text: string): void {
    if (this.literals.length > 0) this.literals.push(JSON.stringify(text));
    else this.decoded += text;
  }

  /** Appends text given as JSON string literals (quotes included). */
  appendLiterals(literals: readonly string[]): void {
    for (const literal of literals) this.literals.push(literal);
  }

  /** The text so far. */
  text(): string {
    if (this.literals.length > 0) {
      this.decoded += decodeLiterals(this.literals);
      this.literals = [];
    }
    return this.decoded;
  }
}
