import type { WebSocket } from 'ws';
import { loadExports } from '../platform/library-exports';
import type { EngineNet } from './engines/engine';

/** How long opening ComfyUI's socket may take. */
const OPEN_TIMEOUT_MS = 15_000;

/**
 * The image engines' way out: every fetch and WebSocket first asks `beforeConnect` (the offline
 * guard), so an engine URL an admin set is reached only while Parley may go online (loopback
 * always). The `ws` library loads on the first ComfyUI run.
 */
export function createEngineNet(deps: { fetch?: typeof fetch; beforeConnect?: (url: string) => Promise<void> } = {}): EngineNet {
  const base = deps.fetch ?? fetch;
  const ask = deps.beforeConnect ?? (async () => undefined);
  return {
    async fetch(input, init) {
      await ask(input instanceof Request ? input.url : String(input));
      return base(input, init);
    },
    async websocket(url, headers): Promise<WebSocket> {
      await ask(url);
      const { WebSocket: Socket } = await loadExports(import('ws'), 'ws', 'WebSocket');
      const ws = new Socket(url, { headers, handshakeTimeout: OPEN_TIMEOUT_MS, maxPayload: 64 * 1024 * 1024 });
      await new Promise<void>((resolve, reject) => {
        ws.once('open', () => resolve());
        ws.once('error', (error) => reject(new Error(`Could not open ComfyUI's socket: ${error.message}`)));
      });
      // A socket error later ends in 'close', which the run listens to: it must not go unhandled.
      ws.on('error', () => undefined);
      return ws;
    },
  };
}
