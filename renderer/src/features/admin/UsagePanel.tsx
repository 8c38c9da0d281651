import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { usageApi } from '../../api/usage';
import { ErrorNotice, Loading } from '../../components/Feedback';
import { formatDay, formatNumber } from '../../lib/format';
import { useT } from '../../lib/i18n';

const RANGES = [7, 30, 90] as const;

/** Requests and tokens through the OpenAI-compatible /v1 API, per day, user and model. */
export function UsagePanel() {
  const t = useT();
  const [days, setDays] = useState<number>(30);
  const report = useQuery({ queryKey: ['api-usage', days], queryFn: () => usageApi.report(days) });
  const rows = report.data?.rows ?? [];
  return (
    <section>
      <div className="row mb">
        <p className="muted small grow" style={{ margin: 0 }}>
          {t('usage.intro')}
        </p>
        <label className="row small" style={{ gap: 6 }}>
          {t('usage.range')}
          <select className="input" value={days} onChange={(e) => setDays(Number(e.target.value))} style={{ width: 'auto' }}>
            {RANGES.map((d) => (
              <option key={d} value={d}>
                {t('usage.lastDays', { count: d })}
              </option>
            ))}
          </select>
        </label>
      </div>
      {report.isPending && <Loading />}
      {report.isError && <ErrorNotice error={report.error} onRetry={() => void report.refetch()} />}
      {report.data && rows.length === 0 && <div className="empty card">{t('usage.none')}</div>}
      {rows.length > 0 && (
        <div className="table-wrap">
          <table className="table" aria-label={t('admin.apiUsage')}>
            <thead>
              <tr>
                <th scope="col">{t('usage.day')}</th>
                <th scope="col">{t('usage.user')}</th>
                <th scope="col">{t('usage.model')}</th>
                <th scope="col" style={{ textAlign: 'end' }}>{t('usage.requests')}</th>
                <th scope="col" style={{ textAlign: 'end' }}>{t('usage.promptTokens')}</th>
                <th scope="col" style={{ textAlign: 'end' }}>{t('usage.completionTokens')}</th>
                <th scope="col" style={{ textAlign: 'end' }}>{t('usage.totalTokens')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={`${r.day} ${r.user_id} ${r.model}`}>
                  <td>{formatDay(r.day)}</td>
                  <td title={r.user_email}>{r.user_name || r.user_email || r.user_id}</td>
                  <td>
                    <code>{r.model}</code>
                  </td>
                  <td style={{ textAlign: 'end' }}>{formatNumber(r.requests)}</td>
                  <td style={{ textAlign: 'end' }}>{formatNumber(r.prompt_tokens)}</td>
                  <td style={{ textAlign: 'end' }}>{formatNumber(r.completion_tokens)}</td>
                  <td style={{ textAlign: 'end' }}>{formatNumber(r.total_tokens)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
