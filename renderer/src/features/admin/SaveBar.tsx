import { useT } from '../../lib/i18n';

/** The save row under a settings form: error message and the save button. */
export function SaveBar({ onSave, saving, dirty, error }: { onSave: () => void; saving: boolean; dirty: boolean; error: string | null }) {
  const t = useT();
  return (
    <div className="col mt">
      {error && (
        <div className="notice error" role="alert">
          {t('common.saveFailed', { detail: error })}
        </div>
      )}
      <div className="row end">
        <button type="button" className="btn primary" onClick={onSave} disabled={saving || !dirty}>
          {saving && <span className="spinner" aria-hidden="true" />}
          {t('common.save')}
        </button>
      </div>
    </div>
  );
}
