import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { toolsApi } from '../../api/tools';
import { messageOf } from '../../components/Feedback';
import { useToast } from '../../components/Toasts';
import { useT } from '../../lib/i18n';

/** Connects the signed-in user to an OAuth 2.1 MCP server: opens its authorization page, then watches for the grant. */
export function OAuthConnect({ serverId, authenticated }: { serverId: string; authenticated: boolean }) {
  const t = useT();
  const qc = useQueryClient();
  const toast = useToast();
  const [busy, setBusy] = useState(false);
  if (authenticated) return <span className="badge success">{t('workspace.oauthConnected')}</span>;
  const connect = async () => {
    setBusy(true);
    try {
      const res = await toolsApi.authorize(serverId);
      if (!res.authenticated && res.authorization_url) {
        window.open(res.authorization_url, '_blank', 'noopener');
        // The callback lands in the other tab; look for the new state for a while.
        for (let i = 0; i < 60; i++) {
          await new Promise((r) => setTimeout(r, 2000));
          const list = await toolsApi.list();
          if (list.find((tool) => tool.id === `server:mcp:${serverId}`)?.authenticated) break;
        }
      }
      await qc.invalidateQueries({ queryKey: ['tools'] });
    } catch (error) {
      toast(messageOf(error), 'error');
    } finally {
      setBusy(false);
    }
  };
  return (
    <button type="button" className="btn small" onClick={() => void connect()} disabled={busy}>
      {busy && <span className="spinner" aria-hidden="true" />}
      {t('workspace.oauthConnect')}
    </button>
  );
}
