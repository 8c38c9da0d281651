import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState, type ClipboardEvent, type DragEvent, type KeyboardEvent } from 'react';
import { chatsApi } from '../../api/chats';
import { knowledgeApi } from '../../api/knowledge';
import type { PickableModel } from '../../api/models';
import { toolsApi } from '../../api/tools';
import { isMissing, messageOf } from '../../components/Feedback';
import { Icon } from '../../components/Icon';
import { useToast } from '../../components/Toasts';
import { formatBytes } from '../../lib/dates';
import { useT } from '../../lib/i18n';
import { usePromptCommands } from '../prompts/usePromptCommands';
import type { ComposerChoices, FileRef } from './store';

/** What else a message is sent with: a model mentioned with `@` (this message only) and the tools turned on. */
export interface SendOptions {
  model?: string;
  toolIds?: string[];
}

/** The `@word` being typed right before the caret, if any. */
function mentionAt(text: string, caret: number): { start: number; query: string } | null {
  const m = /(^|\s)@([^\s@]*)$/.exec(text.slice(0, caret));
  return m ? { start: caret - m[2]!.length - 1, query: m[2]!.toLowerCase() } : null;
}

interface Upload {
  key: string;
  name: string;
  size: number;
  progress: number;
  id?: string;
  error?: string;
  controller: AbortController;
}

/** The message box: text (Enter sends, Shift+Enter adds a line), attachments with progress, knowledge, send/stop. */
export function Composer({
  onSend,
  onStop,
  streaming,
  disabled,
  prefill,
  models = [],
  choices,
  onChoices,
}: {
  onSend: (text: string, files: FileRef[], options?: SendOptions) => void;
  onStop: () => void;
  streaming: boolean;
  disabled?: boolean;
  prefill?: string;
  /** Models that can be mentioned with `@`. */
  models?: PickableModel[];
  /** Tools and knowledge turned on; they stay on for the next messages of the conversation. */
  choices: ComposerChoices;
  onChoices: (patch: Partial<ComposerChoices>) => void;
}) {
  const t = useT();
  const toast = useToast();
  const [text, setText] = useState('');
  const [uploads, setUploads] = useState<Upload[]>([]);
  const { knowledge, toolIds: tools } = choices;
  const setKnowledge = (next: FileRef[] | ((list: FileRef[]) => FileRef[])) => onChoices({ knowledge: typeof next === 'function' ? next(knowledge) : next });
  const setTools = (toolIds: string[]) => onChoices({ toolIds });
  const [picker, setPicker] = useState(false);
  const [toolsOpen, setToolsOpen] = useState(false);
  const [mention, setMention] = useState<PickableModel | null>(null);
  const [typing, setTyping] = useState<{ start: number; query: string } | null>(null);
  const [cursor, setCursor] = useState(0);
  const toolsRef = useRef<HTMLDivElement>(null);
  const mentionable = typing ? models.filter((m) => m.name.toLowerCase().includes(typing.query) || m.id.toLowerCase().includes(typing.query)).slice(0, 8) : [];
  const [dragging, setDragging] = useState(false);
  const area = useRef<HTMLTextAreaElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const pickerRef = useRef<HTMLDivElement>(null);
  const prompts = usePromptCommands({ text, setText, area });

  useEffect(() => {
    if (prefill !== undefined) setText(prefill);
  }, [prefill]);

  useEffect(() => {
    const el = area.current;
    if (!el) return;
    el.style.height = 'auto';
    el.style.height = `${Math.min(el.scrollHeight, 260)}px`;
  }, [text]);

  useEffect(() => {
    if (!picker) return;
    const onDown = (e: MouseEvent) => !pickerRef.current?.contains(e.target as Node) && setPicker(false);
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      setPicker(false);
      area.current?.focus();
    };
    document.addEventListener('mousedown', onDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [picker]);

  useEffect(() => {
    if (!toolsOpen) return;
    const onDown = (e: MouseEvent) => !toolsRef.current?.contains(e.target as Node) && setToolsOpen(false);
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      setToolsOpen(false);
      area.current?.focus();
    };
    document.addEventListener('mousedown', onDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [toolsOpen]);

  const chooseMention = (m: PickableModel) => {
    if (!typing) return;
    const el = area.current;
    const caret = el?.selectionStart ?? text.length;
    setText((t0) => (t0.slice(0, typing.start) + t0.slice(caret)).replace(/^\s+/, ''));
    setMention(m);
    setTyping(null);
    requestAnimationFrame(() => el?.focus());
  };

  const uploading = uploads.some((u) => !u.id && !u.error);
  const canSend = !disabled && !streaming && !uploading && text.trim().length > 0;

  const addFiles = (files: FileList | File[]) => {
    for (const file of Array.from(files)) {
      const key = `${file.name}-${file.size}-${Math.random()}`;
      const controller = new AbortController();
      setUploads((list) => [...list, { key, name: file.name, size: file.size, progress: 0, controller }]);
      const set = (patch: Partial<Upload>) => setUploads((list) => list.map((u) => (u.key === key ? { ...u, ...patch } : u)));
      chatsApi
        .upload(file, (p) => set({ progress: p }), controller.signal)
        .then((res) => {
          const saved = Array.isArray(res) ? res[0] : (res as unknown as { id: string });
          if (!saved) throw new Error('The service returned no file.');
          set({ id: saved.id, progress: 1 });
        })
        .catch((error: unknown) => {
          if ((error as Error).name === 'AbortError') return;
          const detail = isMissing(error) ? t('common.notAvailable') : messageOf(error);
          set({ error: detail });
          toast(t('chat.uploadFailed', { name: file.name, detail }), 'error');
        });
    }
  };

  const removeUpload = (u: Upload) => {
    u.controller.abort();
    setUploads((list) => list.filter((x) => x.key !== u.key));
    if (u.id) void chatsApi.removeAttachment(u.id).catch(() => undefined);
  };

  const send = () => {
    if (!canSend) return;
    const files: FileRef[] = [...uploads.filter((u) => u.id).map((u) => ({ type: 'file' as const, id: u.id!, name: u.name })), ...knowledge];
    onSend(text.trim(), files, { ...(mention ? { model: mention.id } : {}), ...(tools.length ? { toolIds: tools } : {}) });
    setText('');
    setUploads([]);
    setPicker(false);
    setToolsOpen(false);
    setMention(null);
    setTyping(null);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (prompts.onKeyDown(e)) return;
    if (mentionable.length > 0) {
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault();
        setCursor((c) => (c + (e.key === 'ArrowDown' ? 1 : mentionable.length - 1)) % mentionable.length);
        return;
      }
      if ((e.key === 'Enter' || e.key === 'Tab') && !e.shiftKey) {
        e.preventDefault();
        chooseMention(mentionable[Math.min(cursor, mentionable.length - 1)]!);
        return;
      }
      if (e.key === 'Escape') {
        e.preventDefault();
        setTyping(null);
        return;
      }
    }
    if (e.key === 'Backspace' && mention && (e.currentTarget.selectionStart ?? 0) === 0 && (e.currentTarget.selectionEnd ?? 0) === 0) setMention(null);
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      send();
    }
    if (e.key === 'Escape' && streaming) onStop();
  };

  const onPaste = (e: ClipboardEvent) => {
    if (e.clipboardData.files.length > 0) {
      e.preventDefault();
      addFiles(e.clipboardData.files);
    }
  };

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    if (e.dataTransfer.files.length) addFiles(e.dataTransfer.files);
  };

  return (
    <div
      className={`composer${dragging ? ' dragging' : ''}`}
      onDragOver={(e) => {
        if (e.dataTransfer.types.includes('Files')) {
          e.preventDefault();
          setDragging(true);
        }
      }}
      onDragLeave={(e) => !e.currentTarget.contains(e.relatedTarget as Node) && setDragging(false)}
      onDrop={onDrop}
    >
      {dragging && <div className="drop-hint">{t('chat.dropFiles')}</div>}
      {(uploads.length > 0 || knowledge.length > 0) && (
        <div className="composer-files">
          {uploads.map((u) => (
            <span key={u.key} className={`file-chip${u.error ? ' failed' : ''}`} title={u.error ?? `${u.name} · ${formatBytes(u.size)}`} data-testid="attachment" data-file-id={u.id}>
              {!u.id && !u.error ? <span className="spinner" aria-hidden="true" style={{ width: 14, height: 14 }} /> : <Icon name={u.error ? 'alert' : 'file'} size={14} />}
              <span className="truncate">{u.name}</span>
              {!u.id && !u.error && (
                <span className="chip-progress" role="progressbar" aria-label={u.name} aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(u.progress * 100)}>
                  {Math.round(u.progress * 100)}%
                </span>
              )}
              <button type="button" className="chip-x" onClick={() => removeUpload(u)} aria-label={t('chat.removeAttachment', { name: u.name })}>
                <Icon name="x" size={12} />
              </button>
            </span>
          ))}
          {knowledge.map((k) => (
            <span key={k.id} className="file-chip knowledge">
              <Icon name="book" size={14} />
              <span className="truncate">{k.name}</span>
              <button type="button" className="chip-x" onClick={() => setKnowledge((list) => list.filter((x) => x.id !== k.id))} aria-label={t('chat.removeAttachment', { name: k.name })}>
                <Icon name="x" size={12} />
              </button>
            </span>
          ))}
        </div>
      )}
      {mention && (
        <div className="mention-chip" data-testid="mention">
          <Icon name="at" size={13} />
          <span className="truncate">{t('chat.mentioned', { model: mention.name })}</span>
          <button type="button" className="chip-x" onClick={() => setMention(null)} aria-label={t('chat.removeMention')}>
            <Icon name="x" size={12} />
          </button>
        </div>
      )}
      {mentionable.length > 0 && (
        <ul className="menu mention-menu" role="listbox" aria-label={t('chat.mentionModels')}>
          {mentionable.map((m, i) => (
            <li
              key={m.id}
              role="option"
              aria-selected={i === cursor}
              className={`model-option${i === cursor ? ' cursor' : ''}`}
              title={m.id}
              onMouseDown={(e) => {
                e.preventDefault();
                chooseMention(m);
              }}
            >
              <Icon name="at" size={14} />
              <span className="truncate">{m.name}</span>
            </li>
          ))}
        </ul>
      )}
      {prompts.ui}
      <textarea
        id="chat-input"
        ref={area}
        className="composer-input"
        rows={1}
        placeholder={t('chat.placeholder')}
        aria-label={t('chat.placeholder')}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          prompts.onChange(e.target.value, e.target.selectionStart ?? e.target.value.length);
          const found = models.length ? mentionAt(e.target.value, e.target.selectionStart ?? e.target.value.length) : null;
          setTyping(found);
          if (found?.query !== typing?.query) setCursor(0);
        }}
        onKeyDown={onKeyDown}
        onPaste={onPaste}
        disabled={disabled}
      />
      <div className="composer-bar">
        <input ref={fileInput} type="file" multiple hidden onChange={(e) => (e.target.files && addFiles(e.target.files), (e.target.value = ''))} data-testid="file-input" />
        <button type="button" className="icon-btn" onClick={() => fileInput.current?.click()} aria-label={t('chat.attach')} title={t('chat.attach')} disabled={disabled}>
          <Icon name="paperclip" />
        </button>
        <div ref={pickerRef}>
          <button type="button" className={`icon-btn${knowledge.length ? ' active' : ''}`} onClick={() => setPicker((p) => !p)} aria-label={t('chat.knowledge')} title={t('chat.knowledge')} aria-expanded={picker} disabled={disabled}>
            <Icon name="book" />
          </button>
          {picker && <KnowledgePicker selected={knowledge} onChange={setKnowledge} />}
        </div>
        <div ref={toolsRef}>
          <button type="button" className={`icon-btn${tools.length ? ' active' : ''}`} onClick={() => setToolsOpen((o) => !o)} aria-label={t('chat.tools')} title={t('chat.tools')} aria-expanded={toolsOpen} disabled={disabled}>
            <Icon name="tool" />
            {tools.length > 0 && <span className="tool-count">{tools.length}</span>}
          </button>
          {toolsOpen && <ToolsPicker selected={tools} onChange={setTools} />}
        </div>
        <div className="grow" />
        {streaming ? (
          <button type="button" className="send-btn stop" onClick={onStop} aria-label={t('chat.stop')} title={t('chat.stop')}>
            <Icon name="stop" size={16} />
          </button>
        ) : (
          <button type="button" className="send-btn" onClick={send} disabled={!canSend} aria-label={t('chat.send')} title={t('chat.send')}>
            <Icon name="send" size={18} />
          </button>
        )}
      </div>
    </div>
  );
}

function KnowledgePicker({ selected, onChange }: { selected: FileRef[]; onChange: (next: FileRef[]) => void }) {
  const t = useT();
  const list = useQuery({ queryKey: ['knowledge'], queryFn: knowledgeApi.list });
  return (
    <div className="menu knowledge-menu" role="group" aria-label={t('chat.knowledgeTitle')}>
      <div className="tiny muted" style={{ padding: '6px 10px' }}>
        {t('chat.knowledgeTitle')}
      </div>
      {list.isPending && <div className="small muted" style={{ padding: 10 }}>{t('common.loading')}</div>}
      {list.isError && <div className="small muted" style={{ padding: 10 }}>{isMissing(list.error) ? t('common.notAvailable') : messageOf(list.error)}</div>}
      {list.data?.length === 0 && <div className="small muted" style={{ padding: 10 }}>{t('chat.knowledgeNone')}</div>}
      {list.data?.map((kb) => {
        const on = selected.some((s) => s.id === kb.id);
        return (
          <label key={kb.id} className="menu-item checkbox">
            <input type="checkbox" checked={on} onChange={() => onChange(on ? selected.filter((s) => s.id !== kb.id) : [...selected, { type: 'collection', id: kb.id, name: kb.name }])} />
            <span className="grow truncate">{kb.name}</span>
            <span className="tiny muted">{kb.file_count ?? 0}</span>
          </label>
        );
      })}
    </div>
  );
}

function ToolsPicker({ selected, onChange }: { selected: string[]; onChange: (next: string[]) => void }) {
  const t = useT();
  const list = useQuery({ queryKey: ['tools'], queryFn: toolsApi.list });
  return (
    <div className="menu knowledge-menu" role="group" aria-label={t('chat.toolsTitle')}>
      <div className="tiny muted" style={{ padding: '6px 10px' }}>
        {t('chat.toolsTitle')}
      </div>
      {list.isPending && <div className="small muted" style={{ padding: 10 }}>{t('common.loading')}</div>}
      {list.isError && <div className="small muted" style={{ padding: 10 }}>{isMissing(list.error) ? t('common.notAvailable') : messageOf(list.error)}</div>}
      {list.data?.length === 0 && <div className="small muted" style={{ padding: 10 }}>{t('chat.toolsNone')}</div>}
      {list.data?.map((tool) => {
        const on = selected.includes(tool.id);
        return (
          <label key={tool.id} className="menu-item checkbox" title={tool.id}>
            <input type="checkbox" checked={on} onChange={() => onChange(on ? selected.filter((s) => s !== tool.id) : [...selected, tool.id])} />
            <span className="grow truncate">{tool.name}</span>
          </label>
        );
      })}
    </div>
  );
}
