import type { PickableModel } from '../../../api/models';
import { useSession } from '../../../app/session';
import { Icon } from '../../../components/Icon';
import { useT } from '../../../lib/i18n';
import type { ComposerFeatureProps } from './features';

/**
 * True when web search can be used with `model`: an admin turned it on, the person has the
 * `features.web_search` permission, and the model does not say it cannot (`capabilities.web_search`).
 */
export function useWebSearchAvailable(model: PickableModel | undefined): boolean {
  const session = useSession();
  const { state } = session;
  if (state.status !== 'signedIn' || state.config?.features.enable_web_search !== true) return false;
  const permitted = state.user.role === 'admin' || state.user.permissions?.features.web_search !== false;
  return permitted && model?.meta?.capabilities?.web_search !== false;
}

/** The globe: searches the web for the next answers of the conversation. Shown only where web search works. */
export function WebSearchToggle({ disabled, webSearchAvailable, choices, onChoices }: ComposerFeatureProps) {
  const t = useT();
  if (!webSearchAvailable) return null;
  const on = choices.webSearch;
  const label = on ? t('chat.webSearchOn') : t('chat.webSearch');
  return (
    <button type="button" className={`icon-btn${on ? ' active' : ''}`} aria-pressed={on} aria-label={t('chat.webSearch')} title={label} disabled={disabled} onClick={() => onChoices({ webSearch: !on })} data-testid="web-search-toggle">
      <Icon name="globe" />
    </button>
  );
}
