import { createContext, lazy, Suspense, useContext, useState } from 'react';
import { codeApi, type CodeExecuteResponse } from '../../api/code';
import { artifactKind, openArtifact } from '../../features/artifacts/artifacts';
import { useCanRunCode } from '../../features/chat/composer/feature-availability';
import { messageOf } from '../Feedback';
import { Icon } from '../Icon';
import { useT } from '../../lib/i18n';
import { formatBytes } from '../../lib/format';

const MermaidDiagram = lazy(() => import('../../features/artifacts/MermaidDiagram'));

/** Where code blocks are shown: the conversation (its artifacts open in the side panel). Absent: no Preview. */
export const CodeBlockContext = createContext<{ conversation?: string }>({});

/** What the Run button got back. */
function RunOutput({ output }: { output: CodeExecuteResponse }) {
  const t = useT();
  const printed = [output.stdout, output.result].filter(Boolean).join(output.stdout && !output.stdout.endsWith('\n') ? '\n' : '');
  return (
    <div className="run-output" data-testid="run-output">
      <div className="tiny muted">{t('chat.runOutput', { ms: output.duration_ms })}</div>
      {printed && <pre>{printed}</pre>}
      {output.stderr && <pre className="code-step-error">{output.stderr}</pre>}
      {!printed && !output.stderr && output.files.length === 0 && <div className="tiny muted">{t('chat.runNothing')}</div>}
      {output.files.length > 0 && (
        <div className="step-files">
          {output.files.map((file) =>
            file.type.startsWith('image/') ? (
              <img key={file.id} className="step-picture" src={file.url} alt={file.name} />
            ) : (
              <a key={file.id} className="file-chip" href={file.url} download={file.name}>
                <Icon name="download" size={14} />
                <span className="truncate">{file.name}</span>
                <span className="tiny muted">{formatBytes(file.size)}</span>
              </a>
            ),
          )}
        </div>
      )}
    </div>
  );
}

/** The buttons of a code block beyond Copy: Run (Python), Preview (HTML, SVG, Mermaid); and a Mermaid block drawn. */
export function useCodeActions(lang: string | undefined, code: string, streaming: boolean) {
  const t = useT();
  const { conversation } = useContext(CodeBlockContext);
  const canRun = useCanRunCode();
  const [running, setRunning] = useState(false);
  const [output, setOutput] = useState<CodeExecuteResponse | null>(null);
  const [error, setError] = useState<string | null>(null);
  const kind = artifactKind(lang, code);
  const python = /^(python3?|py)$/i.test(lang ?? '');

  const buttons = (
    <>
      {python && canRun && !streaming && (
        <button
          type="button"
          className="code-copy"
          disabled={running}
          onClick={async () => {
            setRunning(true);
            setError(null);
            try {
              setOutput(await codeApi.execute(code));
            } catch (e) {
              setError(messageOf(e));
            } finally {
              setRunning(false);
            }
          }}
          aria-label={t('chat.runCode')}
          data-testid="run-code"
        >
          {running ? <span className="spinner" aria-hidden="true" style={{ width: 12, height: 12 }} /> : <Icon name="play" size={13} />}
          {t('chat.run')}
        </button>
      )}
      {kind && conversation && !streaming && (
        <button type="button" className="code-copy" onClick={() => openArtifact({ conversation, kind, code })} aria-label={t('artifacts.open')} data-testid="preview-artifact">
          <Icon name="panel" size={13} />
          {t('artifacts.preview')}
        </button>
      )}
    </>
  );
  const below = (
    <>
      {kind === 'mermaid' && !streaming && (
        <Suspense fallback={<div className="tiny muted">{t('artifacts.drawing')}</div>}>
          <MermaidDiagram code={code} />
        </Suspense>
      )}
      {output && <RunOutput output={output} />}
      {error && <div className="notice error">{error}</div>}
    </>
  );
  return { buttons, below };
}
