import type { MessageToolStep } from '../../api/chats';
import { Icon } from '../../components/Icon';
import { useT } from '../../lib/i18n';

/** Arguments as the model sent them, indented when they are JSON. */
function pretty(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

function duration(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** The tool calls of an answer as collapsed steps: name, duration and failure at a glance; arguments and result inside. */
export function ToolSteps({ steps }: { steps: MessageToolStep[] }) {
  const t = useT();
  return (
    <div className="tool-steps" data-testid="tool-steps">
      {steps.map((step, i) => (
        <details key={`${step.id}:${i}`} className={`tool-step${step.error ? ' failed' : ''}`} data-testid="tool-step">
          <summary className="small">
            <Icon name={step.error ? 'alert' : 'wrench'} size={14} />
            <span className="tool-step-name">{step.name}</span>
            <span className="tiny muted">{duration(step.duration_ms)}</span>
            {step.error && <span className="tiny tool-step-error">{t('chat.toolFailed')}</span>}
            <Icon name="chevronDown" size={14} className="tool-step-chevron" />
          </summary>
          <div className="tool-step-body">
            <div className="tiny muted">{t('chat.toolArguments')}</div>
            <pre>{pretty(step.arguments)}</pre>
            <div className="tiny muted">{step.error ? t('chat.toolError') : t('chat.toolResult')}</div>
            <pre>{step.error ?? step.result}</pre>
          </div>
        </details>
      ))}
    </div>
  );
}
