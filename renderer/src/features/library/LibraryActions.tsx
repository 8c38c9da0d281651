import './library.css';
import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { download, libraryApi, type ChatImportReport } from '../../api/library';
import { useConfirm } from '../../components/Confirm';
import { messageOf } from '../../components/Feedback';
import { Icon } from '../../components/Icon';
import { Modal } from '../../components/Modal';
import { useToast } from '../../components/Toasts';
import { useT } from '../../lib/i18n';
import { NameDialog } from './NameDialog';
import { useFolders } from './useFolders';

const BATCH = 100;

/** Chats in an imported file: a bare array, or an object with `chats`. */
function chatsIn(parsed: unknown): unknown[] {
  if (Array.isArray(parsed)) return parsed;
  if (parsed && typeof parsed === 'object' && Array.isArray((parsed as { chats?: unknown }).chats)) return (parsed as { chats: unknown[] }).chats;
  return [parsed];
}

function ReportDialog({ report, onClose }: { report: ChatImportReport; onClose: () => void }) {
  const t = useT();
  return (
    <Modal title={t('library.importReport')} onClose={onClose} wide>
      <p data-testid="import-summary">{t('library.importSummary', { imported: report.imported, skipped: report.skipped })}</p>
      {report.duplicates > 0 && <p data-testid="import-duplicates">{t('library.importDuplicates', { count: report.duplicates })}</p>}
      <ul className="import-report">
        {report.chats.map((c) => (
          // A chat skipped because it is already there (its id is given) is no failure.
          <li key={c.index} className={c.status === 'skipped' && c.id !== null ? 'already-there' : c.status}>
            <strong>{c.title || `#${c.index + 1}`}</strong> · {t(`library.format.${c.format}`)} · {c.status === 'imported' ? t('library.importedMessages', { count: c.messages }) : t('library.skipped')}
            {c.skipped_messages > 0 && ` · ${t('library.skippedMessages', { count: c.skipped_messages })}`}
            {c.notes.length > 0 && (
              <ul className="muted small">
                {c.notes.slice(0, 8).map((n, i) => (
                  <li key={i}>{n}</li>
                ))}
              </ul>
            )}
          </li>
        ))}
      </ul>
    </Modal>
  );
}

/** New folder, export all, import (Parley, Open WebUI, ChatGPT files) and archive all, under the chat list. */
export function LibraryActions() {
  const t = useT();
  const toast = useToast();
  const confirm = useConfirm();
  const qc = useQueryClient();
  const { create } = useFolders();
  const input = useRef<HTMLInputElement>(null);
  const [naming, setNaming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [report, setReport] = useState<ChatImportReport | null>(null);

  const importFile = async (file: File) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(await file.text());
    } catch {
      toast(t('library.importBadFile', { name: file.name }), 'error');
      return;
    }
    setBusy(true);
    try {
      const list = chatsIn(parsed);
      const total: ChatImportReport = { imported: 0, skipped: 0, duplicates: 0, chats: [] };
      for (let i = 0; i < list.length; i += BATCH) {
        const part = await libraryApi.import(list.slice(i, i + BATCH));
        total.imported += part.imported;
        total.skipped += part.skipped;
        total.duplicates += part.duplicates;
        total.chats.push(...part.chats.map((c) => ({ ...c, index: c.index + i })));
      }
      setReport(total);
      await qc.invalidateQueries({ queryKey: ['chats'] });
    } catch (error) {
      toast(messageOf(error), 'error');
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="library-actions">
      <button type="button" className="btn ghost small" onClick={() => setNaming(true)}>
        <Icon name="folder" size={14} />
        {t('library.newFolder')}
      </button>
      <button type="button" className="btn ghost small" onClick={() => void libraryApi.exportAll().then((all) => download(`parley-chats-${new Date().toISOString().slice(0, 10)}.json`, JSON.stringify(all, null, 2), 'application/json'), (e: unknown) => toast(messageOf(e), 'error'))}>
        <Icon name="download" size={14} />
        {t('library.exportAll')}
      </button>
      <button type="button" className="btn ghost small" onClick={() => input.current?.click()} disabled={busy}>
        <Icon name="upload" size={14} />
        {busy ? t('library.importing') : t('library.import')}
      </button>
      <input ref={input} type="file" accept=".json,application/json" hidden data-testid="import-input" onChange={(e) => (e.target.files?.[0] && void importFile(e.target.files[0]), (e.target.value = ''))} />
      <button
        type="button"
        className="btn ghost small"
        onClick={async () => {
          if (!(await confirm(t('library.archiveAllConfirm'), { action: t('sidebar.archive') }))) return;
          await libraryApi.archiveAll().catch((e: unknown) => toast(messageOf(e), 'error'));
          await qc.invalidateQueries({ queryKey: ['chats'] });
        }}
      >
        <Icon name="archive" size={14} />
        {t('library.archiveAll')}
      </button>
      {naming && <NameDialog title={t('library.newFolder')} label={t('library.folderName')} onDone={(name) => create.mutate({ name, parent: null })} onClose={() => setNaming(false)} />}
      {report && <ReportDialog report={report} onClose={() => setReport(null)} />}
    </div>
  );
}
