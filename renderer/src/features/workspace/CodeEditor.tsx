import { python } from '@codemirror/lang-python';
import CodeMirror from '@uiw/react-codemirror';
import { useEffect, useState } from 'react';

function isDark(): boolean {
  return document.documentElement.dataset.theme === 'dark';
}

/** CodeMirror with Python highlighting, following the app's light/dark theme. */
export default function CodeEditor({ value, onChange, label }: { value: string; onChange: (v: string) => void; label: string }) {
  const [dark, setDark] = useState(isDark);
  useEffect(() => {
    const observer = new MutationObserver(() => setDark(isDark()));
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    return () => observer.disconnect();
  }, []);
  return (
    <div className="code-editor">
      <CodeMirror value={value} onChange={onChange} extensions={[python()]} theme={dark ? 'dark' : 'light'} minHeight="320px" aria-label={label} basicSetup={{ tabSize: 4 }} />
    </div>
  );
}
