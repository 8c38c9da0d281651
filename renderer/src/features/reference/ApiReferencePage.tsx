import 'swagger-ui-dist/swagger-ui.css';
import './reference.css';
import { useEffect, useRef, useState } from 'react';
import { getToken } from '../../api/http';
import { ErrorNotice, Loading } from '../../components/Feedback';
import { useT } from '../../lib/i18n';

/**
 * The API reference: /api/openapi.json rendered by Swagger UI, bundled with the app (no CDN) and
 * loaded only when this page opens. "Try it out" sends the signed-in session's token.
 */
/** Where the raw OpenAPI document is served. */
const OPENAPI_PATH = '/api/openapi.json';

export default function ApiReferencePage() {
  const t = useT();
  const host = useRef<HTMLDivElement>(null);
  const [error, setError] = useState<Error | null>(null);
  const [loaded, setLoaded] = useState(false);
  useEffect(() => {
    let cancelled = false;
    import('swagger-ui-dist/swagger-ui-es-bundle.js')
      .then(({ default: SwaggerUI }) => {
        if (cancelled || !host.current) return;
        setLoaded(true);
        SwaggerUI({
          url: '/api/openapi.json',
          domNode: host.current,
          deepLinking: true,
          requestInterceptor: (request) => {
            const token = getToken();
            if (token && !request.headers.Authorization) request.headers.Authorization = `Bearer ${token}`;
            return request;
          },
        });
      })
      .catch((e: unknown) => setError(e instanceof Error ? e : new Error(String(e))));
    return () => {
      cancelled = true;
    };
  }, []);
  return (
    <div className="page api-reference" style={{ maxWidth: 1100 }}>
      <div className="page-head">
        <h1>{t('reference.title')}</h1>
      </div>
      <p className="muted">
        {t('reference.intro')} <a href="/api/openapi.json" dir="ltr">
          {OPENAPI_PATH}
        </a>
      </p>
      {error && <ErrorNotice error={error} />}
      {!loaded && !error && <Loading />}
      <div ref={host} className="swagger-host" data-testid="api-reference" />
    </div>
  );
}
