import { codeApi } from '../../../api/code';
import { Icon } from '../../../components/Icon';
import { useT } from '../../../lib/i18n';
import type { ComposerFeatureProps } from './features';
import { useFeatureAvailable } from './feature-availability';

/** The code interpreter: the model may run Python for the next answers. Turning it on starts the sandbox. */
export function CodeInterpreterToggle({ disabled, choices, onChoices, model }: ComposerFeatureProps) {
  const t = useT();
  const available = useFeatureAvailable('code_interpreter', model);
  if (!available) return null;
  const on = choices.codeInterpreter === true;
  return (
    <button
      type="button"
      className={`icon-btn${on ? ' active' : ''}`}
      aria-pressed={on}
      aria-label={t('chat.codeInterpreter')}
      title={on ? t('chat.codeInterpreterOn') : t('chat.codeInterpreter')}
      disabled={disabled}
      onClick={() => {
        onChoices({ codeInterpreter: !on });
        // Python takes a second or two to load: start it while the person types.
        if (!on) void codeApi.warm().catch(() => undefined);
      }}
      data-testid="code-interpreter-toggle"
    >
      <Icon name="code" />
    </button>
  );
}

/** Image generation: an image is made for the next answers. */
export function ImageGenerationToggle({ disabled, choices, onChoices, model }: ComposerFeatureProps) {
  const t = useT();
  const available = useFeatureAvailable('image_generation', model);
  if (!available) return null;
  const on = choices.imageGeneration === true;
  return (
    <button
      type="button"
      className={`icon-btn${on ? ' active' : ''}`}
      aria-pressed={on}
      aria-label={t('chat.imageGeneration')}
      title={on ? t('chat.imageGenerationOn') : t('chat.imageGeneration')}
      disabled={disabled}
      onClick={() => onChoices({ imageGeneration: !on })}
      data-testid="image-generation-toggle"
    >
      <Icon name="image" />
    </button>
  );
}
