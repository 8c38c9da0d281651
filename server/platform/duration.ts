const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400, w: 604_800 };
const DURATION = /^(\d{1,9})(s|m|h|d|w)$/;

/**
 * Parses a duration such as `30m`, `7d` or `2w` into seconds.
 * `-1` means "never" and yields `null`. Returns `undefined` for anything else.
 */
export function parseDuration(value: string): number | null | undefined {
  const text = value.trim();
  if (text === '-1') return null;
  const match = DURATION.exec(text);
  if (!match) return undefined;
  const amount = Number(match[1]);
  const unit = UNIT_SECONDS[match[2] as string] as number;
  return amount > 0 ? amount * unit : undefined;
}
