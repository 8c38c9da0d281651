import { route, type Routes } from '../platform/http/route';

/**
 * The document artifact previews run in. It is framed with `sandbox="allow-scripts"` (no
 * allow-same-origin: an opaque origin, so no cookies, no storage, no reach into Parley's page)
 * and its own policy forbids every network request (no fetch, no images or scripts from
 * anywhere) while letting the artifact's inline scripts and styles run. The artifact arrives by
 * postMessage from the parent and replaces this document; the policy stays.
 */
export const ARTIFACT_FRAME_CSP = [
  "default-src 'none'",
  "script-src 'unsafe-inline' 'unsafe-eval'",
  "style-src 'unsafe-inline'",
  'img-src data: blob:',
  'font-src data:',
  'media-src data: blob:',
  "form-action 'none'",
  "base-uri 'none'",
  "frame-ancestors 'self'",
  'sandbox allow-scripts',
].join('; ');

const FRAME_HTML = `<!doctype html>
<html><head><meta charset="utf-8"><meta name="referrer" content="no-referrer"></head><body><script>
addEventListener('message', function (event) {
  if (event.source !== parent || !event.data || event.data.type !== 'parley-artifact' || typeof event.data.html !== 'string') return;
  document.open();
  document.write(event.data.html);
  document.close();
}, { once: true });
parent.postMessage({ type: 'parley-artifact-ready' }, '*');
</script></body></html>`;

/** `GET /artifact-frame`: the sandboxed document artifact previews are written into. */
export function artifactFrameRoutes(): Routes {
  return [
    route({ method: 'get', path: '/artifact-frame', guard: 'public', produces: 'html', summary: 'The sandboxed, offline document HTML, SVG and Mermaid previews run in' }, ({ res }) => {
      res.set({ 'content-security-policy': ARTIFACT_FRAME_CSP, 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' });
      res.type('html').send(FRAME_HTML);
    }),
  ];
}
