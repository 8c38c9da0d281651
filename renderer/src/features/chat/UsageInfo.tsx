import { Icon } from '../../components/Icon';
import { formatNumber } from '../../lib/format';
import { useT } from '../../lib/i18n';
import type { MessageUsageInfo } from './store';

/** Lines of an answer's usage: tokens, time to first token, tokens per second (what is known). */
export function usageLines(usage: MessageUsageInfo | undefined, t: ReturnType<typeof useT>): string[] {
  if (!usage) return [];
  const lines: string[] = [];
  if (usage.prompt_tokens !== undefined) lines.push(t('chat.usagePrompt', { count: usage.prompt_tokens }));
  if (usage.completion_tokens !== undefined) lines.push(t('chat.usageCompletion', { count: usage.completion_tokens }));
  if (usage.total_tokens !== undefined) lines.push(t('chat.usageTotal', { count: usage.total_tokens }));
  if (usage.ttftMs !== undefined) lines.push(t('chat.usageTtft', { s: formatNumber(usage.ttftMs / 1000, { minimumFractionDigits: 2, maximumFractionDigits: 2 }) }));
  if (usage.completion_tokens && usage.streamMs) lines.push(t('chat.usageSpeed', { n: formatNumber(usage.completion_tokens / Math.max(usage.streamMs / 1000, 0.001), { minimumFractionDigits: 1, maximumFractionDigits: 1 }) }));
  return lines;
}

/** An info mark whose tooltip (on hover or focus) shows the answer's usage; nothing when unknown. */
export function UsageInfo({ usage }: { usage: MessageUsageInfo | undefined }) {
  const t = useT();
  const lines = usageLines(usage, t);
  if (lines.length === 0) return null;
  return (
    <span className="usage-info">
      <button type="button" className="icon-btn small" aria-label={t('chat.usage')} aria-describedby={undefined}>
        <Icon name="info" size={15} />
      </button>
      <span role="tooltip" className="usage-tip">
        {lines.map((l) => (
          <span key={l}>{l}</span>
        ))}
      </span>
    </span>
  );
}
