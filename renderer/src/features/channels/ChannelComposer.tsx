import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type ClipboardEvent, type KeyboardEvent } from 'react';
import { channelsApi } from '../../api/channels';
import { messageOf } from '../../components/Feedback';
import { Icon } from '../../components/Icon';
import { useToast } from '../../components/Toasts';
import { sendLiveEvent } from '../../hooks/use-realtime';
import { useT } from '../../lib/i18n';
import { Attachments } from '../chat/composer/Attachments';
import { AutosizeTextarea } from '../chat/composer/AutosizeTextarea';
import { useUploads } from '../chat/composer/use-uploads';
import { placeMessage } from './live';
import { useChannelMentions, type MentionOption } from './use-channel-mentions';
// The message box looks like the chat's (its styles come with the chat page, which may not have loaded).
import '../chat/chat.css';

/** How often "typing" is repeated while someone keeps typing. */
const TYPING_EVERY_MS = 2_000;

/**
 * A channel's (or a thread's) message box: Enter sends, Shift+Enter adds a line; `@` suggests
 * members, models and `@all`; files upload to the channel as they are added; the others see
 * "… is typing".
 */
export function ChannelComposer({ channelId, parentId, placeholder, mentions, autoFocus }: { channelId: string; parentId?: string; placeholder: string; mentions: MentionOption[]; autoFocus?: boolean }) {
  const t = useT();
  const qc = useQueryClient();
  const toast = useToast();
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const area = useRef<HTMLTextAreaElement>(null);
  const picker = useRef<HTMLInputElement>(null);
  const lastTyping = useRef(0);
  const uploads = useUploads((file, onProgress, signal) => channelsApi.upload(channelId, file, onProgress, signal));
  const suggest = useChannelMentions({ options: mentions, setText, area });
  const files = uploads.saved();
  const canSend = !sending && !uploads.busy && (text.trim().length > 0 || files.length > 0);

  const typing = (on: boolean) => {
    const now = Date.now();
    if (on && now - lastTyping.current < TYPING_EVERY_MS) return;
    lastTyping.current = on ? now : 0;
    sendLiveEvent('channel-events', { channel_id: channelId, message_id: parentId ?? null, data: { type: 'typing', data: { typing: on } } });
  };

  const send = async () => {
    if (!canSend) return;
    setSending(true);
    typing(false);
    try {
      const posted = await channelsApi.post(channelId, { content: text, ...(parentId ? { parent_id: parentId } : {}), ...(files.length ? { data: { files: files.map((f) => ({ type: 'file' as const, id: f.id })) } } : {}) });
      placeMessage(qc, posted);
      setText('');
      uploads.clear();
      suggest.reset();
    } catch (error) {
      toast(messageOf(error), 'error');
    } finally {
      setSending(false);
      requestAnimationFrame(() => area.current?.focus());
    }
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (suggest.onKeyDown(e)) return;
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void send();
    }
  };

  const onPaste = (e: ClipboardEvent) => {
    if (e.clipboardData.files.length > 0) {
      e.preventDefault();
      uploads.add(e.clipboardData.files);
    }
  };

  return (
    <div className="composer channel-composer">
      <Attachments uploads={uploads.uploads} knowledge={[]} onRemoveUpload={uploads.remove} onRemoveKnowledge={() => undefined} />
      {suggest.ui}
      <AutosizeTextarea
        area={area}
        className="composer-input"
        dir="auto"
        placeholder={placeholder}
        aria-label={placeholder}
        value={text}
        autoFocus={autoFocus}
        onChange={(e) => {
          setText(e.target.value);
          suggest.onChange(e.target.value, e.target.selectionStart ?? e.target.value.length);
          if (e.target.value.trim()) typing(true);
        }}
        onKeyDown={onKeyDown}
        onPaste={onPaste}
      />
      <div className="composer-bar">
        <input
          ref={picker}
          type="file"
          multiple
          hidden
          onChange={(e) => {
            if (e.target.files) uploads.add(e.target.files);
            e.target.value = '';
          }}
        />
        <button type="button" className="icon-btn" onClick={() => picker.current?.click()} aria-label={t('channels.attach')} title={t('channels.attach')}>
          <Icon name="paperclip" />
        </button>
        <div className="grow" />
        <button type="button" className="send-btn" onClick={() => void send()} disabled={!canSend} aria-label={t('chat.send')} title={t('chat.send')}>
          <Icon name="send" size={18} />
        </button>
      </div>
    </div>
  );
}
