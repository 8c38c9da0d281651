import type { PickableModel } from '../../../api/models';
import { useSession } from '../../../app/session';

/** The chat features the composer can turn on for the next answers. */
export type ChatFeature = 'web_search' | 'code_interpreter' | 'image_generation';

const SWITCH = { web_search: 'enable_web_search', code_interpreter: 'enable_code_interpreter', image_generation: 'enable_image_generation' } as const;

/**
 * True when `feature` can be used with `model`: an admin turned it on, the person holds the
 * `features.*` permission, and the model does not say it cannot (`meta.capabilities`).
 */
export function useFeatureAvailable(feature: ChatFeature, model: PickableModel | undefined): boolean {
  const { state } = useSession();
  if (state.status !== 'signedIn' || state.config?.features[SWITCH[feature]] !== true) return false;
  const permitted = state.user.role === 'admin' || state.user.permissions?.features[feature] !== false;
  return permitted && model?.meta?.capabilities?.[feature] !== false;
}

/** True when the Run button of Python code blocks works for this person. */
export function useCanRunCode(): boolean {
  const { state } = useSession();
  if (state.status !== 'signedIn' || state.config?.features.enable_code_execution !== true) return false;
  return state.user.role === 'admin' || state.user.permissions?.features.code_interpreter !== false;
}
