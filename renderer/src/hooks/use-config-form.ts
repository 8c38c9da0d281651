import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useSession } from '../app/session';
import { useToast } from '../components/Toasts';
import { messageOf } from '../components/Feedback';
import { t } from '../lib/i18n';

/** Loads a settings object, keeps an editable draft, and saves it back whole. */
export function useConfigForm<T extends object>(key: string, load: () => Promise<T>, save: (draft: T) => Promise<T>) {
  const qc = useQueryClient();
  const toast = useToast();
  const { refreshConfig } = useSession();
  const query = useQuery({ queryKey: ['config', key], queryFn: load });
  const [draft, setDraft] = useState<T | null>(null);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (query.data) setDraft(query.data);
  }, [query.data]);
  const set = <K extends keyof T>(field: K, value: T[K]) => setDraft((d) => (d ? { ...d, [field]: value } : d));
  const submit = async () => {
    if (!draft) return;
    setSaving(true);
    setError(null);
    try {
      const saved = await save(draft);
      qc.setQueryData(['config', key], saved ?? draft);
      setDraft(saved ?? draft);
      toast(t('common.saved'));
      // A switch saved here may turn a feature on or off: the public config says which, and its controls follow.
      void refreshConfig();
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setSaving(false);
    }
  };
  const dirty = !!draft && !!query.data && JSON.stringify(draft) !== JSON.stringify(query.data);
  return { query, draft, set, setDraft, submit, saving, error, dirty };
}
