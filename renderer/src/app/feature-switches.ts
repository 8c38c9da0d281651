import { featureWorks } from '../../../server/contracts/feature-switches';
import { useSession } from './session';

/**
 * Whether a control (a permission leaf, a model capability) belongs to a feature that works on
 * this service, as its public config says: controls of features that are off or not built stay
 * hidden, and appear by themselves once the service reports the feature on.
 */
export function useFeatureWorks(): (name: string) => boolean {
  const { state } = useSession();
  const features = state.status === 'signedIn' ? state.config?.features : undefined;
  return (name) => featureWorks(features, name);
}
