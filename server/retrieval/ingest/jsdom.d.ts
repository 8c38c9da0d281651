// jsdom ships no type declarations; this is the part the HTML extractor uses.
declare module 'jsdom' {
  export class VirtualConsole {}
  export class JSDOM {
    constructor(html: string, options?: { virtualConsole?: VirtualConsole });
    readonly window: { document: Document; close(): void };
  }
}
