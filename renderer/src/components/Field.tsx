import { useId, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, type TextareaHTMLAttributes } from 'react';

interface FieldShell {
  label: string;
  hint?: ReactNode;
  error?: string | null;
}

/** A labelled text input with an optional hint and error message. */
export function TextField({ label, hint, error, id, ...input }: FieldShell & InputHTMLAttributes<HTMLInputElement>) {
  const auto = useId();
  const fieldId = id ?? auto;
  return (
    <div className="field">
      <label htmlFor={fieldId}>{label}</label>
      <input id={fieldId} className="input" aria-invalid={error ? true : undefined} aria-describedby={error ? `${fieldId}-err` : hint ? `${fieldId}-hint` : undefined} {...input} />
      {hint && !error && (
        <span className="hint" id={`${fieldId}-hint`}>
          {hint}
        </span>
      )}
      {error && (
        <span className="error" id={`${fieldId}-err`} role="alert">
          {error}
        </span>
      )}
    </div>
  );
}

/** A labelled multi-line input. */
export function TextArea({ label, hint, error, id, ...input }: FieldShell & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const auto = useId();
  const fieldId = id ?? auto;
  return (
    <div className="field">
      <label htmlFor={fieldId}>{label}</label>
      <textarea id={fieldId} className="textarea" aria-invalid={error ? true : undefined} {...input} />
      {hint && !error && <span className="hint">{hint}</span>}
      {error && (
        <span className="error" role="alert">
          {error}
        </span>
      )}
    </div>
  );
}

/** A labelled select. */
export function SelectField({ label, hint, error, id, children, ...input }: FieldShell & SelectHTMLAttributes<HTMLSelectElement>) {
  const auto = useId();
  const fieldId = id ?? auto;
  return (
    <div className="field">
      <label htmlFor={fieldId}>{label}</label>
      <select id={fieldId} className="select" {...input}>
        {children}
      </select>
      {hint && !error && <span className="hint">{hint}</span>}
      {error && (
        <span className="error" role="alert">
          {error}
        </span>
      )}
    </div>
  );
}

/** An on/off switch (a checkbox underneath, so it is keyboard and screen-reader friendly). */
export function Switch({ label, checked, onChange, disabled, hint }: { label: string; checked: boolean; onChange: (next: boolean) => void; disabled?: boolean; hint?: string }) {
  return (
    <label className="switch">
      <input type="checkbox" role="switch" checked={checked} disabled={disabled} onChange={(e) => onChange(e.target.checked)} />
      <span className="track" aria-hidden="true" />
      <span>
        {label}
        {hint && <span className="muted small"> — {hint}</span>}
      </span>
    </label>
  );
}
