import { useQuery } from '@tanstack/react-query';
import { useRef, type ComponentType } from 'react';
import type { PickableModel } from '../../../api/models';
import { knowledgeApi } from '../../../api/knowledge';
import { notesApi } from '../../../api/notes';
import { useAbilities } from '../../../app/abilities';
import { useSettings } from '../../../app/settings';
import { toolsApi } from '../../../api/tools';
import { Icon } from '../../../components/Icon';
import { useT } from '../../../lib/i18n';
import type { ComposerChoices } from '../store';
import { CheckMenu } from './CheckMenu';
import { ToolbarPopover } from './ToolbarPopover';
import { CodeInterpreterToggle, ImageGenerationToggle } from './make-toggles';
import { MicButton } from '../../audio/MicButton';
import { WebSearchToggle } from './web-search-toggle';

/** What a toolbar feature may use: the conversation's choices, the message box, the attachments. */
export interface ComposerFeatureProps {
  disabled?: boolean;
  /** The model the next message goes to (features it cannot use are not offered). */
  model?: PickableModel;
  choices: ComposerChoices;
  onChoices: (patch: Partial<ComposerChoices>) => void;
  /** Attaches files to the next message (they upload at once). */
  addFiles: (files: FileList | File[]) => void;
  /** Inserts text at the caret of the message box. */
  insertText: (text: string) => void;
  /** Inserts text at the caret and sends the message at once (dictation with "send at once" on). */
  insertAndSend: (text: string) => void;
  /** Puts the caret back in the message box. */
  focusInput: () => void;
}

/**
 * A control in the composer's toolbar (left of the send button). Features appear in the order of
 * `COMPOSER_FEATURES`; add one by appending `{ id, Control }` there. What a feature turns on that
 * must reach the next message belongs in `ComposerChoices` (features/chat/store.ts).
 */
export interface ComposerFeature {
  id: string;
  Control: ComponentType<ComposerFeatureProps>;
}

function AttachFiles({ disabled, addFiles }: ComposerFeatureProps) {
  const t = useT();
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <input ref={input} type="file" multiple hidden onChange={(e) => (e.target.files && addFiles(e.target.files), (e.target.value = ''))} data-testid="file-input" />
      <button type="button" className="icon-btn" onClick={() => input.current?.click()} aria-label={t('chat.attach')} title={t('chat.attach')} disabled={disabled}>
        <Icon name="paperclip" />
      </button>
    </>
  );
}

function KnowledgeToggle({ disabled, choices, onChoices, focusInput }: ComposerFeatureProps) {
  const t = useT();
  const knowledge = choices.knowledge.filter((k) => k.type === 'collection');
  return (
    <ToolbarPopover icon="book" label={t('chat.knowledge')} active={knowledge.length > 0} disabled={disabled} onEscape={focusInput}>
      <KnowledgeMenu choices={choices} onChoices={onChoices} />
    </ToolbarPopover>
  );
}

function KnowledgeMenu({ choices, onChoices }: Pick<ComposerFeatureProps, 'choices' | 'onChoices'>) {
  const t = useT();
  const list = useQuery({ queryKey: ['knowledge'], queryFn: knowledgeApi.list });
  const { knowledge } = choices;
  return (
    <CheckMenu
      title={t('chat.knowledgeTitle')}
      none={t('chat.knowledgeNone')}
      query={list}
      itemKey={(kb) => kb.id}
      checked={(kb) => knowledge.some((s) => s.id === kb.id)}
      onToggle={(kb, on) => onChoices({ knowledge: on ? [...knowledge, { type: 'collection', id: kb.id, name: kb.name }] : knowledge.filter((s) => s.id !== kb.id) })}
      label={(kb) => kb.name}
      aside={(kb) => <span className="tiny muted">{kb.file_count ?? 0}</span>}
    />
  );
}

function ToolsToggle({ disabled, choices, onChoices, focusInput }: ComposerFeatureProps) {
  const t = useT();
  const { toolIds } = choices;
  return (
    <ToolbarPopover icon="tool" label={t('chat.tools')} active={toolIds.length > 0} badge={toolIds.length} disabled={disabled} onEscape={focusInput}>
      <ToolsMenu choices={choices} onChoices={onChoices} />
    </ToolbarPopover>
  );
}

function ToolsMenu({ choices, onChoices }: Pick<ComposerFeatureProps, 'choices' | 'onChoices'>) {
  const t = useT();
  const list = useQuery({ queryKey: ['tools'], queryFn: toolsApi.list });
  const { toolIds } = choices;
  return (
    <CheckMenu
      title={t('chat.toolsTitle')}
      none={t('chat.toolsNone')}
      query={list}
      itemKey={(tool) => tool.id}
      checked={(tool) => toolIds.includes(tool.id)}
      onToggle={(tool, on) => onChoices({ toolIds: on ? [...toolIds, tool.id] : toolIds.filter((s) => s !== tool.id) })}
      label={(tool) => tool.name}
      hint={(tool) => tool.id}
    />
  );
}

/** Notes to give the model with the next messages (their text reaches it like an attached file's). */
function NotesToggle({ disabled, choices, onChoices, focusInput }: ComposerFeatureProps) {
  const t = useT();
  const { notes } = useAbilities();
  if (!notes) return null;
  const chosen = choices.knowledge.filter((k) => k.type === 'note');
  return (
    <ToolbarPopover icon="pencil" label={t('chat.notes')} active={chosen.length > 0} badge={chosen.length} disabled={disabled} onEscape={focusInput}>
      <NotesMenu choices={choices} onChoices={onChoices} />
    </ToolbarPopover>
  );
}

function NotesMenu({ choices, onChoices }: Pick<ComposerFeatureProps, 'choices' | 'onChoices'>) {
  const t = useT();
  const list = useQuery({ queryKey: ['notes', 'search', ''], queryFn: () => notesApi.search(''), select: (r) => r.items });
  const { knowledge } = choices;
  return (
    <CheckMenu
      title={t('chat.notesTitle')}
      none={t('chat.notesNone')}
      query={list}
      itemKey={(note) => note.id}
      checked={(note) => knowledge.some((s) => s.id === note.id)}
      onToggle={(note, on) => onChoices({ knowledge: on ? [...knowledge, { type: 'note', id: note.id, name: note.title || t('notes.untitled') }] : knowledge.filter((s) => s.id !== note.id) })}
      label={(note) => note.title || t('notes.untitled')}
    />
  );
}

/** Memory on or off for this conversation (starts as the person's setting). */
function MemoryToggle({ disabled, choices, onChoices }: ComposerFeatureProps) {
  const t = useT();
  const { memories } = useAbilities();
  const { settings } = useSettings();
  if (!memories) return null;
  const on = choices.memory ?? settings.memory === true;
  const label = on ? t('chat.memoryOn') : t('chat.memoryOff');
  return (
    <button type="button" className={`icon-btn${on ? ' active' : ''}`} aria-pressed={on} aria-label={t('chat.memory')} title={label} disabled={disabled} onClick={() => onChoices({ memory: !on })}>
      <Icon name="sparkle" />
    </button>
  );
}

/** The composer's toolbar controls, in order. */
export const COMPOSER_FEATURES: ComposerFeature[] = [
  { id: 'attach', Control: AttachFiles },
  { id: 'knowledge', Control: KnowledgeToggle },
  { id: 'notes', Control: NotesToggle },
  { id: 'tools', Control: ToolsToggle },
  { id: 'web_search', Control: WebSearchToggle },
  { id: 'code_interpreter', Control: CodeInterpreterToggle },
  { id: 'image_generation', Control: ImageGenerationToggle },
  { id: 'memory', Control: MemoryToggle },
  { id: 'mic', Control: MicButton },
];
