import { describe, expect, it } from 'vitest';
import { featureWorks } from './feature-switches';

describe('featureWorks', () => {
  it('hides the controls of a feature whose switch is not reported (not built) or reported off', () => {
    expect(featureWorks({ enable_signup: true }, 'web_search')).toBe(false);
    expect(featureWorks({ enable_web_search: false }, 'web_search')).toBe(false);
    expect(featureWorks(undefined, 'code_interpreter')).toBe(false);
  });

  it('shows them once the service reports the switch on, each feature by its own switch', () => {
    const features = { enable_web_search: true, enable_notes: true };
    expect(featureWorks(features, 'web_search')).toBe(true);
    expect(featureWorks(features, 'notes')).toBe(true);
    expect(featureWorks(features, 'public_notes')).toBe(true);
    expect(featureWorks(features, 'image_generation')).toBe(false);
    expect(featureWorks(features, 'channels')).toBe(false);
  });

  it('always shows controls that depend on no switch', () => {
    expect(featureWorks(undefined, 'file_upload')).toBe(true);
    expect(featureWorks({}, 'vision')).toBe(true);
  });
});
