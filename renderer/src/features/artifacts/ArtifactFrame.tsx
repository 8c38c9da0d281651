import { useEffect, useRef, useState } from 'react';
import { useT } from '../../lib/i18n';
import type { ArtifactKind } from './artifacts';
import { renderMermaid } from './mermaid-render';

/** The HTML document a preview shows: the page itself, or the picture on an empty page. */
async function documentOf(kind: ArtifactKind, code: string): Promise<string> {
  if (kind === 'html') return code;
  const svg = kind === 'svg' ? code : await renderMermaid(code);
  return `<!doctype html><html><head><meta charset="utf-8"><style>html,body{margin:0;height:100%;display:flex;align-items:center;justify-content:center;background:#fff}svg{max-width:100%;max-height:100vh}</style></head><body>${svg}</body></html>`;
}

/**
 * A live preview in an iframe sandboxed without allow-same-origin (an opaque origin: no cookies,
 * no storage, no access to Parley's page or API) on Parley's offline frame document (its policy
 * refuses every network request). The code is handed over by postMessage once the frame is ready.
 */
export function ArtifactFrame({ kind, code, title }: { kind: ArtifactKind; code: string; title: string }) {
  const t = useT();
  const frame = useRef<HTMLIFrameElement>(null);
  const [error, setError] = useState<string | null>(null);
  // A new frame for each document: the frame accepts one document only.
  const [generation, setGeneration] = useState(0);

  useEffect(() => setGeneration((g) => g + 1), [kind, code]);

  useEffect(() => {
    let html: Promise<string> | null = null;
    setError(null);
    const onMessage = (event: MessageEvent) => {
      if (event.source !== frame.current?.contentWindow || (event.data as { type?: string })?.type !== 'parley-artifact-ready') return;
      html ??= documentOf(kind, code);
      html.then(
        (doc) => frame.current?.contentWindow?.postMessage({ type: 'parley-artifact', html: doc }, '*'),
        (e: unknown) => setError(e instanceof Error ? e.message : String(e)),
      );
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [generation, kind, code]);

  if (error) return <div className="notice error">{t('artifacts.mermaidError', { detail: error.split('\n')[0] ?? '' })}</div>;
  return <iframe key={generation} ref={frame} className="artifact-frame" title={title} src="/artifact-frame" sandbox="allow-scripts" referrerPolicy="no-referrer" data-testid="artifact-frame" />;
}
