import { useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import { requestedModel } from '../../app/chat-link';
import { chatsApi } from '../../api/chats';
import { modelsApi } from '../../api/models';
import { ratingsApi, type MessageRating } from '../../api/ratings';
import { useSession, useUser } from '../../app/session';
import { useSettings } from '../../app/settings';
import { useAbilities } from '../../app/abilities';
import { ErrorNotice, isMissing, Loading } from '../../components/Feedback';
import { Icon } from '../../components/Icon';
import { Modal } from '../../components/Modal';
import { useT } from '../../lib/i18n';
import { usePhoneTopbar } from '../../components/topbar-slot';
import { continueAnswer, editAnswer, editMessage, regenerate, sendMessage, showVersion, stop, type ChatContext } from './actions';
import { Composer, type SendOptions } from './composer/Composer';
import { useFeatureAvailable } from './composer/feature-availability';
import { CodeBlockContext } from '../../components/markdown/code-actions';
import { useOpenArtifact } from '../artifacts/artifacts';

const ArtifactPanel = lazy(() => import('../artifacts/ArtifactPanel'));
import { AnswerAnnouncer } from './AnswerAnnouncer';
import { ConnectionBanner } from './ConnectionBanner';
import { EmptyChat } from './EmptyChat';
import { MessageList } from './MessageList';
import type { MessageActions } from './MessageView';
import { ModelPicker } from './ModelPicker';
import { choicesOf, emptyConversation, fromChat, getConversation, pathOf, setChoices, setConversation, useConversation } from './store';
import './chat.css';

const MODEL_KEY = 'parley.model';

/** The chat view: model picker, the thread, and the composer. `/` is a new chat; `/c/:id` a saved one. */
export default function ChatPage() {
  const t = useT();
  const user = useUser();
  const { chatId } = useParams();
  const location = useLocation();
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const key = chatId ?? `new:${location.key}`;
  const conversation = useConversation(key);
  const { settings } = useSettings();
  const personal = settings as { models?: unknown; system?: unknown };
  const defaultModel = Array.isArray(personal.models) && typeof personal.models[0] === 'string' && personal.models[0] ? personal.models[0] : null;
  const systemPrompt = typeof personal.system === 'string' && personal.system.trim() ? personal.system.trim() : undefined;
  const [model, setModel] = useState<string | null>(() => defaultModel ?? localStorage.getItem(MODEL_KEY));
  const [help, setHelp] = useState(false);
  const topbar = usePhoneTopbar();
  const session = useSession();
  const ratingOn = session.state.status === 'signedIn' && session.state.config?.features.enable_message_rating === true;

  const models = useQuery({ queryKey: ['models', 'available'], queryFn: modelsApi.available });
  const saved = useQuery({ queryKey: ['chat', chatId], queryFn: () => chatsApi.get(chatId!), enabled: !!chatId && !getConversation(key), staleTime: Infinity });

  useEffect(() => {
    if (!chatId && !getConversation(key)) setConversation(key, emptyConversation(key, null));
  }, [chatId, key]);
  useEffect(() => {
    if (chatId && saved.data && !getConversation(key)) setConversation(key, fromChat(key, saved.data));
  }, [chatId, key, saved.data]);

  const ratingsChat = conversation?.chatId ?? null;
  const ratings = useQuery({ queryKey: ['ratings', ratingsChat], queryFn: () => ratingsApi.ofChat(ratingsChat!), enabled: ratingOn && !!ratingsChat, retry: false });
  const ratingById = useMemo(() => new Map((ratings.data ?? []).map((r) => [r.message_id, r])), [ratings.data]);
  const path = useMemo(() => (conversation ? pathOf(conversation) : []), [conversation]);
  const modelNames = useMemo(() => new Map((models.data ?? []).map((m) => [m.id, m.name])), [models.data]);

  // Pick a model: the one this chat last used; for a new chat the personal default, else the last
  // chosen one; the first available only when none was chosen. A chosen model whose connection is
  // down stays chosen (the banner says why it is missing) instead of silently switching.
  const decided = useRef<string | null>(null);
  useEffect(() => {
    const list = models.data;
    if (!list) return;
    const decision = `${key}|${defaultModel ?? ''}`;
    if (decided.current === decision) return;
    if (chatId && path.length === 0) return; // the saved chat is still loading
    // A new chat that just got its id keeps the model it was started with.
    const wasNew = decided.current?.startsWith('new:') ?? false;
    decided.current = decision;
    if (wasNew && chatId && model) return;
    const lastUsed = [...path].reverse().find((n) => n.role === 'assistant' && n.model)?.model;
    // A new chat opened for one model (`/?model=…`: "Chat with it") starts with that model.
    const asked = chatId ? null : requestedModel(searchParams);
    const wanted = lastUsed ?? asked ?? defaultModel ?? localStorage.getItem(MODEL_KEY) ?? list[0]?.id ?? null;
    if (wanted !== model) setModel(wanted);
  }, [models.data, key, defaultModel, path.length]);
  const modelMissing = !!model && !!models.data && !models.data.some((m) => m.id === model);

  const chooseModel = (id: string) => {
    setModel(id);
    localStorage.setItem(MODEL_KEY, id);
  };

  const artifact = useOpenArtifact();
  const codeContext = useMemo(() => ({ conversation: key }), [key]);
  const pickedModel = models.data?.find((m) => m.id === model);
  const canSearch = useFeatureAvailable('web_search', pickedModel);
  const canCode = useFeatureAvailable('code_interpreter', pickedModel);
  const canImage = useFeatureAvailable('image_generation', pickedModel);
  const abilities = useAbilities();
  const chosenMemory = choicesOf(key).memory;
  const memory = abilities.memories && (chosenMemory ?? settings.memory === true);
  const suggestMemories = abilities.memories && settings.memory_suggestions === true;
  const ctx: ChatContext = useMemo(
    () => ({ queryClient, navigate: (to, o) => navigate(to, o), system: systemPrompt, available: { web_search: canSearch, code_interpreter: canCode, image_generation: canImage }, memory, suggestMemories }),
    [queryClient, navigate, systemPrompt, canSearch, canCode, canImage, memory, suggestMemories],
  );
  const streaming = !!conversation?.streamingId;

  const actions: MessageActions = useMemo(
    () => ({
      onCopy: () => undefined,
      onRegenerate: (id) => model && void regenerate(key, id, model, ctx),
      onRetry: (id) => model && void regenerate(key, id, model, ctx),
      onEdit: (id, text) => model && void editMessage(key, id, text, model, ctx),
      onVersion: (id) => showVersion(key, id),
      onFollowUp: (text) => model && void sendMessage(key, text, model, [], ctx),
      onContinue: (id) => model && void continueAnswer(key, id, model),
      onEditAnswer: (id, text) => void editAnswer(key, id, text),
      onEditImage: (file, prompt) => model && void sendMessage(key, prompt, model, [{ type: 'file', id: file.id, name: file.name }], { ...ctx, features: { image_generation: true } }),
      onRate:
        ratingOn && ratingsChat
          ? (id, rating, reason) =>
              void ratingsApi.rate(ratingsChat, id, rating, reason).then((saved) => {
                queryClient.setQueryData<MessageRating[]>(['ratings', ratingsChat], (list = []) => [...list.filter((r) => r.message_id !== id), ...(saved ? [saved] : [])]);
              })
          : undefined,
    }),
    [key, model, ctx, ratingOn, ratingsChat, queryClient],
  );

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.key === '/') {
        e.preventDefault();
        setHelp((h) => !h);
      }
      if (e.key === 'Escape' && streaming) stop(key);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [key, streaming]);


  const composer = (
    <Composer
      streaming={streaming}
      disabled={!model}
      models={models.data ?? []}
      choices={choicesOf(key)}
      onChoices={(patch) => setChoices(key, patch)}
      model={pickedModel}
      onStop={() => stop(key)}
      onSend={(text, files, options?: SendOptions) => {
        const answerWith = options?.model ?? model;
        if (answerWith) void sendMessage(key, text, answerWith, files, { ...ctx, toolIds: options?.toolIds });
      }}
    />
  );

  // On a phone the model picker sits in the shell's top bar (one bar); the shortcuts list needs a keyboard and stays off.
  const picker = <ModelPicker models={models.data ?? []} value={model} onChange={chooseModel} loading={models.isPending} unreachable={modelMissing} />;

  if (chatId && saved.isError && !conversation) {
    return (
      <div className="page">
        <ErrorNotice error={isMissing(saved.error) ? new Error(t('chat.notFound')) : saved.error} onRetry={() => void saved.refetch()} />
      </div>
    );
  }

  return (
    <CodeBlockContext.Provider value={codeContext}>
    <div className="chat-split">
    <div className="chat-page">
      {topbar ? (
        createPortal(picker, topbar)
      ) : (
        <div className="chat-head">
          {picker}
          <div className="grow" />
          <button type="button" className="icon-btn" onClick={() => setHelp(true)} aria-label={t('chat.shortcuts')} title={t('common.withShortcut', { label: t('chat.shortcuts'), shortcut: t('common.kbd.shortcuts') })}>
            <Icon name="keyboard" />
          </button>
        </div>
      )}
      {models.isError && !isMissing(models.error) && (
        <div className="chat-notice">
          <ErrorNotice error={models.error} onRetry={() => void models.refetch()} />
        </div>
      )}
      <ConnectionBanner isAdmin={user.role === 'admin'} modelMissing={modelMissing ? model : null} />
      {models.data?.length === 0 && (
        <div className="chat-notice">
          <div className="notice info">
            <Icon name="alert" />
            <span>{t('chat.noModels')}</span>
          </div>
        </div>
      )}
      {!conversation && chatId ? (
        // The loading state fills the thread's place, so the composer stays where it will be.
        <div className="thread-scroll">
          <Loading />
        </div>
      ) : path.length === 0 ? (
        <EmptyChat name={user.name.split(' ')[0] ?? user.name} composer={composer} isAdmin={user.role === 'admin'} onPick={(text) => model && void sendMessage(key, text, model, [], ctx)} />
      ) : (
        conversation && <MessageList conversation={conversation} path={path} modelNames={modelNames} actions={actions} ratings={ratingById} />
      )}
      {path.length > 0 || (!conversation && chatId) ? <div className="composer-wrap">{composer}</div> : null}
      <AnswerAnnouncer conversation={conversation} modelNames={modelNames} />
      {help && (
        <Modal title={t('chat.shortcuts')} onClose={() => setHelp(false)}>
          <table className="table">
            <tbody>
              {(
                [
                  [t('common.kbd.newChat'), t('chat.shortcutNew')],
                  [t('common.kbd.focusInput'), t('chat.shortcutFocus')],
                  [t('common.kbd.send'), t('chat.shortcutSend')],
                  [t('common.kbd.newline'), t('chat.shortcutNewline')],
                  [t('common.kbd.stop'), t('chat.shortcutStop')],
                  [t('common.kbd.toggleSidebar'), t('nav.toggleSidebar')],
                  [t('common.kbd.shortcuts'), t('chat.shortcuts')],
                ]
              ).map(([k, label]) => (
                <tr key={k}>
                  <td>{label}</td>
                  <td style={{ textAlign: 'end' }}>
                    <kbd>{k}</kbd>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </Modal>
      )}
    </div>
    {artifact && artifact.conversation === key && (
      <Suspense fallback={<aside className="artifact-panel"><Loading /></aside>}>
        <ArtifactPanel artifact={artifact} />
      </Suspense>
    )}
    </div>
    </CodeBlockContext.Provider>
  );
}
