import { useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import type { AccessControl } from '../../../../server/contracts/access';
import type { NoteAssistAction, NoteEvent } from '../../../../server/contracts/notes';
import { notesApi, noteText, type Note } from '../../api/notes';
import { AccessEditor } from '../../components/AccessEditor';
import { useAbilities } from '../../app/abilities';
import { useConfirm } from '../../components/Confirm';
import { ErrorNotice, Loading, messageOf } from '../../components/Feedback';
import { Icon } from '../../components/Icon';
import { Modal } from '../../components/Modal';
import { useToast } from '../../components/Toasts';
import { useUser } from '../../app/session';
import { followTopic, onLiveEvent } from '../../hooks/use-realtime';
import { useT } from '../../lib/i18n';
import { ConflictDialog } from './ConflictDialog';
import { AssistDialog } from './AssistDialog';

const Markdown = lazy(() => import('../../components/markdown/Markdown'));

/** How long typing pauses before the note is saved. */
const AUTOSAVE_MS = 800;
/** How long to wait before trying again after a save failed (network, service restarting). */
const RETRY_MS = 5000;

/** What the service holds, as this editor last knew it: the version edits are made from. */
interface Base {
  version: number;
  title: string;
  text: string;
}

type SaveState = 'saved' | 'saving' | 'unsaved' | 'failed';

/**
 * One note: title and Markdown text (write or preview), saved as typing pauses. A save names the
 * version it was made from; when someone saved in between, the service refuses it and the
 * conflict dialog offers to merge or keep either version. Saves by others arrive live and replace
 * the text while there is nothing unsaved here.
 */
export function NoteEditor({ id, onClosed }: { id: string; onClosed: () => void }) {
  const t = useT();
  const qc = useQueryClient();
  const toast = useToast();
  const confirm = useConfirm();
  const user = useUser();
  const loaded = useQuery({ queryKey: ['note', id], queryFn: () => notesApi.get(id), staleTime: Infinity, refetchOnWindowFocus: false, retry: false });
  const [title, setTitle] = useState('');
  const [text, setText] = useState('');
  const [base, setBaseState] = useState<Base | null>(null);
  const [state, setState] = useState<SaveState>('saved');
  const [conflict, setConflict] = useState<Note | null>(null);
  const [mode, setMode] = useState<'write' | 'preview'>('write');
  const [gone, setGone] = useState(false);
  const [assist, setAssist] = useState<NoteAssistAction | null>(null);
  const [sharing, setSharing] = useState(false);
  const [retryTick, setRetryTick] = useState(0);
  const latest = useRef({ title, text });
  latest.current = { title, text };
  const baseRef = useRef<Base | null>(null);
  const saving = useRef(false);
  const note = loaded.data;
  const writable = note?.write_access === true && !gone;

  const setBase = useCallback((next: Base) => {
    baseRef.current = next;
    setBaseState(next);
  }, []);

  // The note as loaded: the starting point of the editor.
  useEffect(() => {
    if (!note || baseRef.current) return;
    setTitle(note.title);
    setText(noteText(note));
    setBase({ version: note.version, title: note.title, text: noteText(note) });
    if (!note.write_access) setMode('preview');
  }, [note, setBase]);

  // Saves by others, live: taken over at once while nothing here is unsaved.
  useEffect(() => {
    const unfollow = followTopic(`note:${id}`);
    const off = onLiveEvent('note-events', (payload) => {
      const event = payload as NoteEvent;
      if (event.id !== id) return;
      if (event.deleted) {
        setGone(true);
        return;
      }
      const current = baseRef.current;
      if (!current || event.version <= current.version) return;
      const unsaved = latest.current.title !== current.title || latest.current.text !== current.text;
      if (unsaved || saving.current) return; // the next save meets the newer version and asks what to keep
      const theirs = noteText(event);
      setTitle(event.title);
      setText(theirs);
      setBase({ version: event.version, title: event.title, text: theirs });
      void qc.invalidateQueries({ queryKey: ['notes', 'search'] });
    });
    return () => {
      off();
      unfollow();
    };
  }, [id, qc, setBase]);

  const dirty = base !== null && (title !== base.title || text !== base.text);

  const save = useCallback(async () => {
    const from = baseRef.current;
    if (!from || saving.current) return;
    const sending = { ...latest.current };
    if (sending.title === from.title && sending.text === from.text) return;
    saving.current = true;
    setState('saving');
    try {
      const result = await notesApi.save(id, { title: sending.title, md: sending.text, version: from.version });
      if ('conflict' in result) {
        setConflict(result.conflict);
        setState('unsaved');
        return;
      }
      setBase({ version: result.saved.version, title: sending.title, text: sending.text });
      const now = latest.current;
      setState(now.title === sending.title && now.text === sending.text ? 'saved' : 'unsaved');
      void qc.invalidateQueries({ queryKey: ['notes', 'search'] });
    } catch {
      setState('failed');
      setTimeout(() => setRetryTick((n) => n + 1), RETRY_MS);
    } finally {
      saving.current = false;
    }
  }, [id, qc, setBase]);

  // Autosave: a pause in typing saves; a save that ended with more typed saves again.
  useEffect(() => {
    if (!dirty || !writable || conflict) return;
    setState((s) => (s === 'saving' ? s : 'unsaved'));
    const timer = setTimeout(() => void save(), AUTOSAVE_MS);
    return () => clearTimeout(timer);
  }, [dirty, writable, conflict, title, text, base, save, retryTick]);

  // Leaving with unsaved words: the browser asks first.
  useEffect(() => {
    if (!dirty) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  if (loaded.isPending) return <Loading />;
  if (loaded.isError || !note || !base) return <ErrorNotice error={loaded.error} onRetry={() => void loaded.refetch()} />;

  const resolve = (next: { title: string; text: string } | null, theirs: Note) => {
    const theirsText = noteText(theirs);
    setBase({ version: theirs.version, title: theirs.title, text: theirsText });
    if (next) {
      setTitle(next.title);
      setText(next.text);
    } else {
      setTitle(theirs.title);
      setText(theirsText);
    }
    setConflict(null);
  };

  const remove = async () => {
    if (!(await confirm(t('notes.deleteConfirm', { title: title || t('notes.untitled') }), { action: t('common.delete'), danger: true }))) return;
    try {
      await notesApi.remove(id);
      await qc.invalidateQueries({ queryKey: ['notes'] });
      onClosed();
    } catch (error) {
      toast(messageOf(error), 'error');
    }
  };

  const status = !writable ? t('notes.readOnly') : state === 'saving' ? t('notes.saving') : state === 'failed' ? t('notes.saveFailed') : dirty || state === 'unsaved' ? t('notes.unsaved') : t('notes.saved');

  return (
    <div className="note-editor" data-testid="note-editor">
      <div className="note-toolbar">
        <div className="segmented" role="group" aria-label={t('notes.view')}>
          <button type="button" className={`btn small${mode === 'write' ? ' active' : ''}`} aria-pressed={mode === 'write'} disabled={!writable} onClick={() => setMode('write')}>
            <Icon name="pencil" size={14} />
            {t('notes.write')}
          </button>
          <button type="button" className={`btn small${mode === 'preview' ? ' active' : ''}`} aria-pressed={mode === 'preview'} onClick={() => setMode('preview')}>
            <Icon name="eye" size={14} />
            {t('notes.preview')}
          </button>
        </div>
        <span className={`note-status tiny${state === 'failed' ? ' danger' : ' muted'}`} role="status" data-testid="note-status">
          {status}
        </span>
        <div className="grow" />
        {writable && (
          <>
            <button type="button" className="btn small ghost" onClick={() => setAssist('summarize')} disabled={!text.trim()}>
              <Icon name="sparkle" size={14} />
              {t('notes.summarize')}
            </button>
            <button type="button" className="btn small ghost" onClick={() => setAssist('improve')} disabled={!text.trim()}>
              <Icon name="sparkle" size={14} />
              {t('notes.improve')}
            </button>
          </>
        )}
        <button type="button" className="icon-btn small" onClick={() => void notesApi.download(id).catch((e: unknown) => toast(messageOf(e), 'error'))} aria-label={t('notes.export')} title={t('notes.export')}>
          <Icon name="download" size={16} />
        </button>
        {writable && (note.user_id === user.id || user.role === 'admin') && (
          <button type="button" className="icon-btn small" onClick={() => setSharing(true)} aria-label={t('notes.share')} title={t('notes.share')}>
            <Icon name="users" size={16} />
          </button>
        )}
        {writable && (
          <button type="button" className="icon-btn small" onClick={() => void remove()} aria-label={t('common.delete')} title={t('common.delete')}>
            <Icon name="trash" size={16} />
          </button>
        )}
      </div>
      {gone && (
        <div className="notice error" role="alert">
          <Icon name="alert" />
          {t('notes.deletedElsewhere')}
        </div>
      )}
      <input className="note-title" dir="auto" value={title} readOnly={!writable} onChange={(e) => setTitle(e.target.value)} placeholder={t('notes.untitled')} aria-label={t('notes.noteTitle')} />
      {mode === 'write' && writable ? (
        <textarea className="note-text" dir="auto" value={text} onChange={(e) => setText(e.target.value)} placeholder={t('notes.placeholder')} aria-label={t('notes.noteText')} spellCheck />
      ) : (
        <div className="note-preview">
          <Suspense fallback={<div className="markdown plain">{text}</div>}>{text.trim() ? <Markdown text={text} /> : <p className="muted">{t('notes.noText')}</p>}</Suspense>
        </div>
      )}
      {conflict && (
        <ConflictDialog
          base={base}
          mine={{ title, text }}
          theirs={conflict}
          onResolve={(next) => {
            resolve(next, conflict);
            if (next && next.conflicts > 0) toast(t('notes.mergeMarked', { count: next.conflicts }));
          }}
        />
      )}
      {assist && (
        <AssistDialog
          action={assist}
          text={text}
          onClose={() => setAssist(null)}
          onApply={(result) => {
            setText(result);
            setMode('write');
            setAssist(null);
          }}
        />
      )}
      {sharing && (
        <ShareDialog
          note={note}
          onClose={() => setSharing(false)}
          onSaved={(saved) => {
            if (noteText(saved) === baseRef.current?.text && saved.title === baseRef.current.title) setBase({ version: saved.version, title: saved.title, text: noteText(saved) });
            void qc.invalidateQueries({ queryKey: ['note', id] });
            setSharing(false);
          }}
        />
      )}
    </div>
  );
}

/** Who may read and change the note (its owner and admins decide). */
function ShareDialog({ note, onClose, onSaved }: { note: Note; onClose: () => void; onSaved: (saved: Note) => void }) {
  const t = useT();
  const makePublic = useAbilities().makePublic;
  const [access, setAccess] = useState<AccessControl>(note.access_control);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const save = async () => {
    setBusy(true);
    try {
      const result = await notesApi.save(note.id, { access_control: access });
      if ('saved' in result) onSaved(result.saved);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      title={t('notes.share')}
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="button" className="btn primary" onClick={() => void save()} disabled={busy}>
            {t('common.save')}
          </button>
        </>
      }
    >
      <div className="col">
        <p className="muted small">{t('notes.shareHint')}</p>
        <AccessEditor name="note-access" canMakePublic={makePublic.notes} value={access} onChange={setAccess} publicLabel={t('notes.public')} privateLabel={t('notes.private')} />
        {error !== null && <ErrorNotice error={error} />}
      </div>
    </Modal>
  );
}
