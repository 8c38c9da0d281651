import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { lanApi, type LanStatus } from '../../api/lan';
import { ErrorNotice, Loading, messageOf } from '../../components/Feedback';
import { Switch } from '../../components/Field';
import { Icon } from '../../components/Icon';
import { useToast } from '../../components/Toasts';
import { copyText } from '../../lib/clipboard';
import { desktop, openLink } from '../../lib/desktop';
import { useT } from '../../lib/i18n';
import { LanPasswordDialog } from './LanPasswordDialog';
import { NumberField, numberError } from '../../components/NumberField';

const KEY = ['config', 'lan'];

/** The QR code of one LAN address, so a phone can open it by pointing its camera. */
function QrCode({ url }: { url: string }) {
  const t = useT();
  const qr = useQuery({ queryKey: ['lan-qr', url], queryFn: ({ signal }) => lanApi.qrSvg(url, signal), staleTime: Infinity });
  if (qr.isError) return <span className="muted small">{t('lan.qrFailed')}</span>;
  if (!qr.data) return <div className="lan-qr placeholder" aria-hidden="true" />;
  return <img className="lan-qr" src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(qr.data)}`} alt={t('lan.qrAlt', { url })} width={148} height={148} />;
}

function Addresses({ status }: { status: LanStatus }) {
  const t = useT();
  const toast = useToast();
  if (!status.listening) return null;
  return (
    <div className="col">
      <h3 className="lan-sub">{t('lan.addresses')}</h3>
      <p className="muted small">{t('lan.addressesDesc')}</p>
      <ul className="lan-urls">
        {status.urls.map((url) => (
          <li key={url} className="lan-url">
            <QrCode url={url} />
            <div className="col grow" style={{ gap: 8 }}>
              <a href={url} className="lan-link" onClick={(e) => (e.preventDefault(), openLink(url))}>
                {url}
              </a>
              <div className="row">
                <button type="button" className="btn small" onClick={() => void copyText(url).then((ok) => ok && toast(t('common.copied')))}>
                  <Icon name="copy" size={14} />
                  {t('lan.copyLink')}
                </button>
              </div>
            </div>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** "Share on local network": the switch, the fixed port, the addresses with QR codes, warnings and errors. */
export function LanPanel() {
  const t = useT();
  const qc = useQueryClient();
  const status = useQuery({ queryKey: KEY, queryFn: lanApi.status });
  const [port, setPort] = useState<number | undefined>(undefined);
  const [failure, setFailure] = useState<string | null>(null);
  const [version, setVersion] = useState<string | null>(null);
  const [askPassword, setAskPassword] = useState(false);

  // In the desktop window the tray can toggle sharing too: follow its change events.
  useEffect(() => {
    const bridge = desktop();
    if (!bridge) return;
    void bridge.appVersion().then(setVersion, () => undefined);
    return bridge.onLanSharingChange(() => void qc.invalidateQueries({ queryKey: KEY }));
  }, [qc]);

  useEffect(() => {
    if (status.data && port === undefined) setPort(status.data.port);
  }, [status.data, port]);

  const update = useMutation({
    mutationFn: lanApi.update,
    onMutate: () => setFailure(null),
    onSuccess: (next) => {
      qc.setQueryData(KEY, next);
      setPort(next.port);
    },
    onError: (err) => setFailure(messageOf(err)),
  });

  const s = status.data;
  const portError = port === undefined ? null : numberError(port, 1024, 65_535, true);
  const portChanged = !!s && port !== undefined && port !== s.port;
  const problem = failure ?? s?.error ?? null;
  // The switch follows the click at once; it returns to the service's answer if the change fails.
  const shownEnabled = update.isPending && update.variables.enabled !== undefined ? update.variables.enabled : (s?.enabled ?? false);

  return (
    <section className="card">
      <div className="card-title">
        <h2>{t('lan.title')}</h2>
        {s && <span className={`badge ${s.listening ? 'success' : ''}`}>{s.listening ? t('lan.sharing') : t('lan.notSharing')}</span>}
      </div>
      <p className="section-desc">{t('lan.desc')}</p>
      {status.isPending && <Loading />}
      {status.isError && <ErrorNotice error={status.error} onRetry={() => void status.refetch()} />}
      {s && (
        <div className="col">
          <Switch
            label={t('lan.toggle')}
            checked={shownEnabled}
            disabled={update.isPending}
            // An admin without a password (the desktop owner) sets one first: other devices sign in with it.
            onChange={(enabled) => (enabled && s.password_required ? setAskPassword(true) : update.mutate({ enabled }))}
          />
          {askPassword && (
            <LanPasswordDialog
              onClose={() => setAskPassword(false)}
              onDone={() => {
                setAskPassword(false);
                update.mutate({ enabled: true });
              }}
            />
          )}
          <div className="lan-port">
            <NumberField label={t('lan.port')} value={port} onChange={setPort} min={1024} max={65_535} hint={t('lan.portHint')} />
            <button type="button" className="btn" disabled={!portChanged || !!portError || update.isPending} onClick={() => port !== undefined && update.mutate({ port })}>
              {update.isPending && <span className="spinner" aria-hidden="true" />}
              {t('lan.applyPort')}
            </button>
          </div>
          {problem && (
            <div className="notice error" role="alert">
              <Icon name="alert" />
              <div className="grow">{problem}</div>
            </div>
          )}
          {s.warnings.map((w) => (
            <div key={w} className="notice warning" role="status">
              <Icon name="shield" />
              <div className="grow">{w}</div>
            </div>
          ))}
          {s.signup && (
            <p className="muted small">
              <strong>{t('lan.signup')}:</strong> {s.signup.summary}
            </p>
          )}
          {s.fingerprint && (
            <div className="col" style={{ gap: 4 }}>
              <h3 className="lan-sub">{t('lan.fingerprint')}</h3>
              <code className="small" data-testid="lan-fingerprint" style={{ wordBreak: 'break-all' }}>
                {s.fingerprint}
              </code>
              <p className="muted small">{t('lan.fingerprintDesc')}</p>
            </div>
          )}
          <Addresses status={s} />
          {version && <p className="muted small">{t('lan.desktopVersion', { version })}</p>}
        </div>
      )}
    </section>
  );
}
