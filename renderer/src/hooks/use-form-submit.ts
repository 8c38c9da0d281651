import { useState, type FormEvent } from 'react';
import { messageOf } from '../components/Feedback';

/**
 * The submit half of a form: runs `action` once at a time, keeps `busy` while it runs and the
 * error message it threw. A check before the request can refuse with `setError`.
 */
export function useFormSubmit(action: () => Promise<void>) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const onSubmit = async (event?: FormEvent) => {
    event?.preventDefault();
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, setError, onSubmit };
}
