import { TextField } from './Field';
import { t } from '../lib/i18n';

/** Checks a number against bounds; returns the message to show, or null. */
export function numberError(value: unknown, min: number, max: number, integer: boolean): string | null {
  if (typeof value !== 'number' || Number.isNaN(value)) return t('common.mustBeBetween', { min, max });
  if (integer && !Number.isInteger(value)) return t('common.mustBeWholeNumber');
  if (value < min || value > max) return t('common.mustBeBetween', { min, max });
  return null;
}

/** A numeric input that reports out-of-range values next to the field. */
export function NumberField({ label, value, onChange, min, max, step, integer = true, hint }: { label: string; value: number | undefined; onChange: (v: number) => void; min: number; max: number; step?: number; integer?: boolean; hint?: string }) {
  return (
    <TextField
      label={label}
      type="number"
      inputMode={integer ? 'numeric' : 'decimal'}
      min={min}
      max={max}
      step={step ?? (integer ? 1 : 0.05)}
      value={value ?? ''}
      onChange={(e) => onChange(e.target.value === '' ? Number.NaN : Number(e.target.value))}
      error={value === undefined ? null : numberError(value, min, max, integer)}
      hint={hint}
    />
  );
}
