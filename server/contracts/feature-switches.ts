/**
 * Optional features whose controls (permission switches for users and groups, a model's
 * capabilities) show only while the service reports the feature on. Each names its switch among
 * the `features` of `GET /api/config` (told to signed-in callers). A feature that is not built
 * reports no switch, so its controls stay hidden until it lands and an admin turns it on; they
 * then appear by themselves. Controls not listed here always show.
 */
export const FEATURE_SWITCHES = {
  web_search: 'enable_web_search',
  image_generation: 'enable_image_generation',
  code_interpreter: 'enable_code_interpreter',
  notes: 'enable_notes',
  public_notes: 'enable_notes',
  channels: 'enable_channels',
} as const satisfies Record<string, `enable_${string}`>;

/**
 * Whether the control named `name` (a permission leaf or a model capability) belongs to a feature
 * that works: it has no switch, or the service reports its switch on.
 */
export function featureWorks(features: Readonly<Record<string, unknown>> | undefined, name: string): boolean {
  const flag = (FEATURE_SWITCHES as Readonly<Record<string, string>>)[name];
  return flag === undefined || features?.[flag] === true;
}
