import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent, type KeyboardEvent, type ReactNode, type RefObject } from 'react';
import { promptsApi, type Prompt } from '../../api/library';
import { useUser } from '../../app/session';
import { TextField } from '../../components/Field';
import { Modal } from '../../components/Modal';
import { listKeyDown } from '../../hooks/list-keys';
import { useT } from '../../lib/i18n';
import { builtInValues, commandAt, fillPrompt, userVariables, usesClipboard } from './prompt-variables';

interface Typed {
  start: number;
  end: number;
  query: string;
}

async function readClipboard(): Promise<string> {
  try {
    return (await navigator.clipboard?.readText?.()) ?? '';
  } catch {
    return '';
  }
}

/**
 * `/` prompts in a message box: a filtered list of the prompts library while a `/command` is
 * typed, and the chosen prompt inserted in its place with its variables filled in (user-defined
 * ones through a small form). The box wires it with `onChange`, `onKeyDown` and renders `ui`.
 */
export function usePromptCommands({ text, setText, area }: { text: string; setText: (next: string) => void; area: RefObject<HTMLTextAreaElement | null> }) {
  const t = useT();
  const user = useUser();
  const [typed, setTyped] = useState<Typed | null>(null);
  const [cursor, setCursor] = useState(0);
  const [asking, setAsking] = useState<{ prompt: Prompt; at: Typed } | null>(null);
  const list = useQuery({ queryKey: ['prompts'], queryFn: promptsApi.list, enabled: typed !== null, staleTime: 30_000, retry: false });
  const matches = typed ? (list.data ?? []).filter((p) => p.command.slice(1).includes(typed.query) || p.title.toLowerCase().includes(typed.query)).slice(0, 8) : [];

  const insert = async (prompt: Prompt, at: Typed, answers: Record<string, string>) => {
    const clipboard = usesClipboard(prompt.content) ? await readClipboard() : '';
    const filled = fillPrompt(prompt.content, { ...builtInValues(new Date(), user.name, clipboard), ...answers });
    const next = text.slice(0, at.start) + filled + text.slice(at.end);
    setText(next);
    const caret = at.start + filled.length;
    requestAnimationFrame(() => {
      area.current?.focus();
      area.current?.setSelectionRange(caret, caret);
    });
  };

  const choose = (prompt: Prompt) => {
    if (!typed) return;
    const at = typed;
    setTyped(null);
    if (userVariables(prompt.content).length > 0) setAsking({ prompt, at });
    else void insert(prompt, at, {});
  };

  /** Call with the box's new value and caret. */
  const onChange = (value: string, caret: number) => {
    const found = commandAt(value, caret);
    setTyped(found ? { ...found, end: caret } : null);
    if (found?.query !== typed?.query) setCursor(0);
  };

  /** Call first in the box's key handler; true when the key was used by the list. */
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>): boolean => listKeyDown(e, { items: matches, cursor, setCursor, pick: choose, close: () => setTyped(null) });

  const ui: ReactNode = (
    <>
      {matches.length > 0 && (
        <ul className="menu mention-menu" role="listbox" aria-label={t('prompts.picker')} data-testid="prompt-menu">
          {matches.map((p, i) => (
            <li
              key={p.command}
              role="option"
              aria-selected={i === cursor}
              className={`model-option${i === cursor ? ' cursor' : ''}`}
              onMouseDown={(e) => {
                e.preventDefault();
                choose(p);
              }}
            >
              <span className="badge">{p.command}</span>
              <span className="truncate">{p.title}</span>
            </li>
          ))}
        </ul>
      )}
      {asking && (
        <VariablesForm
          prompt={asking.prompt}
          onCancel={() => setAsking(null)}
          onDone={(answers) => {
            const { prompt, at } = asking;
            setAsking(null);
            void insert(prompt, at, answers);
          }}
        />
      )}
    </>
  );

  return { onChange, onKeyDown, ui };
}

/** Asks for the user-defined `{{name}}` variables of a prompt. */
function VariablesForm({ prompt, onDone, onCancel }: { prompt: Prompt; onDone: (answers: Record<string, string>) => void; onCancel: () => void }) {
  const t = useT();
  const names = userVariables(prompt.content);
  const [answers, setAnswers] = useState<Record<string, string>>(() => Object.fromEntries(names.map((n) => [n, ''])));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onDone(answers);
  };
  return (
    <Modal title={t('prompts.fill', { title: prompt.title })} onClose={onCancel}>
      <form className="col" onSubmit={submit}>
        {names.map((n, i) => (
          <TextField key={n} label={n} value={answers[n] ?? ''} onChange={(e) => setAnswers((a) => ({ ...a, [n]: e.target.value }))} autoFocus={i === 0} />
        ))}
        <div className="row end">
          <button type="button" className="btn" onClick={onCancel}>
            {t('common.cancel')}
          </button>
          <button type="submit" className="btn primary">
            {t('prompts.insert')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
