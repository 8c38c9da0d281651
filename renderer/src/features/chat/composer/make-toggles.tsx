import { codeApi } from '../../../api/code';
import { Icon } from '../../../components/Icon';
import { useT } from '../../../lib/i18n';
import type { ComposerFeatureProps } from './features';
import { useFeatureAvailable } from './feature-availability';

/** One feature switch of the composer: pressed while on, its title saying what being on means. */
function MakeToggle({ on, label, onLabel, icon, disabled, onToggle, testId }: { on: boolean; label: string; onLabel: string; icon: 'code' | 'image'; disabled?: boolean; onToggle(): void; testId: string }) {
  return (
    <button type="button" className={`icon-btn${on ? ' active' : ''}`} aria-pressed={on} aria-label={label} title={on ? onLabel : label} disabled={disabled} onClick={onToggle} data-testid={testId}>
      <Icon name={icon} />
    </button>
  );
}

/** The code interpreter: the model may run Python for the next answers. Turning it on starts the sandbox. */
export function CodeInterpreterToggle({ disabled, choices, onChoices, model }: ComposerFeatureProps) {
  const t = useT();
  const available = useFeatureAvailable('code_interpreter', model);
  if (!available) return null;
  const on = choices.codeInterpreter === true;
  const toggle = () => {
    onChoices({ codeInterpreter: !on });
    // Python takes a second or two to load: start it while the person types.
    if (!on) void codeApi.warm().catch(() => undefined);
  };
  return <MakeToggle on={on} label={t('chat.codeInterpreter')} onLabel={t('chat.codeInterpreterOn')} icon="code" disabled={disabled} onToggle={toggle} testId="code-interpreter-toggle" />;
}

/** Image generation: an image is made for the next answers. */
export function ImageGenerationToggle({ disabled, choices, onChoices, model }: ComposerFeatureProps) {
  const t = useT();
  const available = useFeatureAvailable('image_generation', model);
  if (!available) return null;
  const on = choices.imageGeneration === true;
  return <MakeToggle on={on} label={t('chat.imageGeneration')} onLabel={t('chat.imageGenerationOn')} icon="image" disabled={disabled} onToggle={() => onChoices({ imageGeneration: !on })} testId="image-generation-toggle" />;
}
