import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, Navigate, useNavigate, useParams } from 'react-router';
import { notesApi, noteText, type Note } from '../../api/notes';
import { useAbilities } from '../../app/abilities';
import { useUser } from '../../app/session';
import { ErrorNotice, Loading, messageOf } from '../../components/Feedback';
import { Icon } from '../../components/Icon';
import { useToast } from '../../components/Toasts';
import { useT } from '../../lib/i18n';
import { formatRelative } from '../../lib/format';
import { NoteEditor } from './NoteEditor';
import './notes.css';

/** A line of a note's text to show under its title: Markdown marks left out. */
function snippet(note: Note): string {
  const text = noteText(note)
    .replace(/[#>*_`~[\]()-]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > 120 ? `${text.slice(0, 120)}…` : text;
}

/** The Notes area: the notes the person may read (searched across their words), and the open note. */
export default function NotesPage() {
  const t = useT();
  const { notes: allowed } = useAbilities();
  const { noteId } = useParams();
  const navigate = useNavigate();
  const user = useUser();
  const qc = useQueryClient();
  const toast = useToast();
  const [query, setQuery] = useState('');
  const text = query.trim();
  const list = useQuery({ queryKey: ['notes', 'search', text], queryFn: () => notesApi.search(text), placeholderData: (previous) => previous });
  if (!allowed) return <Navigate to="/" replace />;

  const create = async () => {
    try {
      const note = await notesApi.create(t('notes.untitled'));
      await qc.invalidateQueries({ queryKey: ['notes'] });
      navigate(`/notes/${note.id}`);
    } catch (error) {
      toast(messageOf(error), 'error');
    }
  };

  return (
    <div className={`notes-page${noteId ? ' has-note' : ''}`}>
      <aside className="notes-list" aria-label={t('notes.title')}>
        <div className="notes-list-head">
          <h1>{t('notes.title')}</h1>
          <button type="button" className="btn primary small" onClick={() => void create()}>
            <Icon name="plus" size={15} />
            {t('notes.new')}
          </button>
        </div>
        <div className="sidebar-search">
          <Icon name="search" size={15} />
          <input className="input" type="search" placeholder={t('notes.search')} aria-label={t('notes.search')} value={query} onChange={(e) => setQuery(e.target.value)} />
        </div>
        {list.isPending && <Loading />}
        {list.isError && <ErrorNotice error={list.error} onRetry={() => void list.refetch()} />}
        {list.data && list.data.items.length === 0 && <p className="muted small notes-empty">{text ? t('notes.noMatch', { query: text }) : t('notes.empty')}</p>}
        <ul className="notes-items">
          {list.data?.items.map((note) => (
            <li key={note.id}>
              <Link to={`/notes/${note.id}`} className={`note-item${note.id === noteId ? ' active' : ''}`} aria-current={note.id === noteId ? 'page' : undefined} data-testid="note-item">
                <span className="note-item-title truncate">{note.title || t('notes.untitled')}</span>
                <span className="note-item-text tiny muted">{snippet(note) || t('notes.noText')}</span>
                <span className="note-item-meta tiny muted">
                  {formatRelative(note.updated_at)}
                  {note.user && note.user.id !== user.id && <> · {note.user.name}</>}
                  {note.access_control === null && <> · {t('notes.public')}</>}
                </span>
              </Link>
            </li>
          ))}
        </ul>
        {list.data && list.data.total > list.data.items.length && <p className="tiny muted notes-empty">{t('notes.more', { count: list.data.total - list.data.items.length })}</p>}
      </aside>
      <section className="notes-editor-pane">
        {noteId ? (
          <NoteEditor key={noteId} id={noteId} onClosed={() => navigate('/notes')} />
        ) : (
          <div className="empty">
            <Icon name="pencil" size={28} />
            <h3>{t('notes.pick')}</h3>
            <p className="muted">{t('notes.pickHint')}</p>
          </div>
        )}
      </section>
    </div>
  );
}
