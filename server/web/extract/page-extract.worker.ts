// The web reading worker thread: jsdom + Readability turn fetched pages into text, and DuckDuckGo's
// result page is parsed here, off the service's event loop. {id, kind, …} in; {id, ok, value|error} out.
import { parentPort } from 'node:worker_threads';
import { duckduckgoResults, pageText, type PageInput } from './page-extract';

type Message = { id: number; kind: 'page'; page: PageInput } | { id: number; kind: 'ddg'; html: string };

parentPort?.on('message', (message: Message) => {
  const work = message.kind === 'page' ? pageText(message.page) : duckduckgoResults(message.html);
  void work.then(
    (value) => parentPort!.postMessage({ id: message.id, ok: true, value }),
    (error: unknown) => parentPort!.postMessage({ id: message.id, ok: false, error: error instanceof Error ? error.message : String(error) }),
  );
});
