import { useState } from 'react';
import { Modal } from '../../components/Modal';
import { useT } from '../../lib/i18n';

/** A small dialog asking for one name (new folder, subfolder). */
export function NameDialog({ title, label, onDone, onClose }: { title: string; label: string; onDone: (name: string) => void; onClose: () => void }) {
  const t = useT();
  const [name, setName] = useState('');
  const submit = () => {
    if (!name.trim()) return;
    onDone(name.trim());
    onClose();
  };
  return (
    <Modal
      title={title}
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="button" className="btn primary" onClick={submit} disabled={!name.trim()}>
            {t('common.save')}
          </button>
        </>
      }
    >
      <label className="field">
        <span>{label}</span>
        <input className="input" autoFocus value={name} onChange={(e) => setName(e.target.value)} onKeyDown={(e) => e.key === 'Enter' && submit()} />
      </label>
    </Modal>
  );
}
