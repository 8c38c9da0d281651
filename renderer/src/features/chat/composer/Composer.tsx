import { useEffect, useLayoutEffect, useRef, useState, type ClipboardEvent, type KeyboardEvent } from 'react';
import type { PickableModel } from '../../../api/models';
import { Icon } from '../../../components/Icon';
import { useT } from '../../../lib/i18n';
import { seesImages } from '../../../../../server/contracts/vision';
import { usePromptCommands } from '../../prompts/usePromptCommands';
import type { ComposerChoices, FileRef } from '../store';
import { Attachments } from './Attachments';
import { AutosizeTextarea } from './AutosizeTextarea';
import { COMPOSER_FEATURES, type ComposerFeatureProps } from './features';
import { useMentions } from './use-mentions';
import { useUploads } from './use-uploads';

/** What else a message is sent with: a model mentioned with `@` (this message only) and the tools turned on. */
export interface SendOptions {
  model?: string;
  toolIds?: string[];
}

/** A focused message box that unmounts hands the focus to the next one mounted right after. */
const focusHandOff = { pending: false, at: 0 };

/**
 * The message box: text (Enter sends, Shift+Enter adds a line), `@model` mentions, `/` prompts,
 * attachments with progress, the toolbar's features (files, knowledge, tools…), send/stop.
 */
export function Composer({
  onSend,
  onStop,
  streaming,
  disabled,
  prefill,
  models = [],
  choices,
  onChoices,
  model,
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
  /** The model chosen to answer the next message (an `@` mention answers instead). */
  model?: PickableModel;
}) {
  const t = useT();
  const [text, setText] = useState('');
  const [dragging, setDragging] = useState(false);
  const area = useRef<HTMLTextAreaElement>(null);
  /** Set by a dictation that sends at once: the next render (with the text in) sends. */
  const sendAfterInsert = useRef(false);
  const uploads = useUploads();
  const mentions = useMentions({ models, setText, area });
  const prompts = usePromptCommands({ text, setText, area });
  const { knowledge, toolIds } = choices;

  useEffect(() => {
    if (prefill !== undefined) setText(prefill);
  }, [prefill]);

  // The message box moves when a new chat gets its first message (and again as `/` becomes
  // `/c/<id>`): the box that replaces a focused one takes the focus, so typing goes on.
  useLayoutEffect(() => {
    const el = area.current;
    if (el && focusHandOff.pending && performance.now() - focusHandOff.at < 2000) el.focus();
    focusHandOff.pending = false;
    return () => {
      if (el && document.activeElement === el) Object.assign(focusHandOff, { pending: true, at: performance.now() });
    };
  }, []);

  const answering = models.find((m) => m.id === (mentions.mention?.id ?? model?.id));
  const blindToImages = uploads.hasImage && !!answering && !seesImages(answering.meta, answering.provider);
  const canSend = !disabled && !streaming && !uploads.busy && text.trim().length > 0;

  const send = () => {
    if (!canSend) return;
    const { mention } = mentions;
    onSend(text.trim(), [...uploads.saved(), ...knowledge], { ...(mention ? { model: mention.id } : {}), ...(toolIds.length ? { toolIds } : {}) });
    setText('');
    uploads.clear();
    mentions.reset();
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (prompts.onKeyDown(e)) return;
    if (mentions.onKeyDown(e)) return;
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      send();
    }
    if (e.key === 'Escape' && streaming) onStop();
  };

  const onPaste = (e: ClipboardEvent) => {
    if (e.clipboardData.files.length > 0) {
      e.preventDefault();
      uploads.add(e.clipboardData.files);
    }
  };

  // Files dropped anywhere on the page while the message box is shown are attached to the message
  // (the browser would otherwise open them in the tab, leaving the chat). A drop zone of its own
  // (that calls preventDefault) keeps its drops.
  const addFiles = useRef(uploads.add);
  addFiles.current = uploads.add;
  useEffect(() => {
    const hasFiles = (e: globalThis.DragEvent) => !!e.dataTransfer?.types.includes('Files');
    const onOver = (e: globalThis.DragEvent) => {
      if (!hasFiles(e) || e.defaultPrevented) return;
      e.preventDefault();
      if (e.dataTransfer) e.dataTransfer.dropEffect = 'copy';
      setDragging(true);
    };
    const onLeave = (e: globalThis.DragEvent) => {
      if (!e.relatedTarget) setDragging(false);
    };
    const onDrop = (e: globalThis.DragEvent) => {
      setDragging(false);
      if (!hasFiles(e) || e.defaultPrevented) return;
      e.preventDefault();
      if (e.dataTransfer?.files.length) addFiles.current(e.dataTransfer.files);
    };
    window.addEventListener('dragover', onOver);
    window.addEventListener('dragleave', onLeave);
    window.addEventListener('drop', onDrop);
    return () => {
      window.removeEventListener('dragover', onOver);
      window.removeEventListener('dragleave', onLeave);
      window.removeEventListener('drop', onDrop);
    };
  }, []);

  useEffect(() => {
    if (!sendAfterInsert.current) return;
    sendAfterInsert.current = false;
    send();
  });

  const insertText = (inserted: string) => {
      const el = area.current;
      const start = el?.selectionStart ?? text.length;
      const end = el?.selectionEnd ?? start;
      setText((current) => current.slice(0, start) + inserted + current.slice(end));
      requestAnimationFrame(() => {
        el?.focus();
        el?.setSelectionRange(start + inserted.length, start + inserted.length);
      });
  };

  const feature: ComposerFeatureProps = {
    disabled,
    model,
    choices,
    onChoices,
    addFiles: uploads.add,
    insertText,
    insertAndSend: (inserted) => {
      insertText(inserted);
      sendAfterInsert.current = true;
    },
    focusInput: () => area.current?.focus(),
  };

  return (
    <div className={`composer${dragging ? ' dragging' : ''}`}>
      {dragging && <div className="drop-hint">{t('chat.dropFiles')}</div>}
      <Attachments uploads={uploads.uploads} knowledge={knowledge} onRemoveUpload={uploads.remove} onRemoveKnowledge={(k) => onChoices({ knowledge: knowledge.filter((x) => x.id !== k.id) })} />
      {blindToImages && answering && (
        <div className="notice warning composer-notice" role="status" data-testid="no-vision">
          <Icon name="alert" size={14} />
          <span>{t('chat.modelCannotSeeImages', { model: answering.name })}</span>
        </div>
      )}
      {mentions.ui}
      {prompts.ui}
      <AutosizeTextarea
        id="chat-input"
        area={area}
        className="composer-input"
        dir="auto"
        placeholder={t('chat.placeholder')}
        aria-label={t('chat.placeholder')}
        value={text}
        onChange={(e) => {
          const caret = e.target.selectionStart ?? e.target.value.length;
          setText(e.target.value);
          prompts.onChange(e.target.value, caret);
          mentions.onChange(e.target.value, caret);
        }}
        onKeyDown={onKeyDown}
        onPaste={onPaste}
        disabled={disabled}
      />
      <div className="composer-bar">
        {COMPOSER_FEATURES.map(({ id, Control }) => (
          <Control key={id} {...feature} />
        ))}
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
