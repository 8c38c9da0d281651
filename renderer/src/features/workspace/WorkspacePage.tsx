import { NavLink, Navigate, Route, Routes } from 'react-router';
import { useT } from '../../lib/i18n';
import { PromptsList } from '../prompts/PromptsList';
import { KnowledgeDetail } from './KnowledgeDetail';
import { KnowledgeList } from './KnowledgeList';
import { ModelEditor } from './ModelEditor';
import { ModelsList } from './ModelsList';
import { ToolEditor } from './ToolEditor';
import { ToolsList } from './ToolsList';
import './workspace.css';

/** The workspace: custom models, knowledge bases, tools and prompts. */
export default function WorkspacePage() {
  const t = useT();
  return (
    <div className="page" style={{ maxWidth: 1100 }}>
      <div className="page-head">
        <h1>{t('workspace.title')}</h1>
      </div>
      <nav className="tabs" aria-label={t('workspace.title')}>
        <NavLink to="/workspace/models" className={({ isActive }) => `tab${isActive ? ' active' : ''}`}>
          {t('workspace.models')}
        </NavLink>
        <NavLink to="/workspace/knowledge" className={({ isActive }) => `tab${isActive ? ' active' : ''}`}>
          {t('workspace.knowledge')}
        </NavLink>
        <NavLink to="/workspace/tools" className={({ isActive }) => `tab${isActive ? ' active' : ''}`}>
          {t('workspace.tools')}
        </NavLink>
        <NavLink to="/workspace/prompts" className={({ isActive }) => `tab${isActive ? ' active' : ''}`}>
          {t('prompts.title')}
        </NavLink>
      </nav>
      <Routes>
        <Route index element={<Navigate to="models" replace />} />
        <Route path="models" element={<ModelsList />} />
        <Route path="models/new" element={<ModelEditor />} />
        <Route path="models/edit" element={<ModelEditor />} />
        <Route path="knowledge" element={<KnowledgeList />} />
        <Route path="knowledge/:id" element={<KnowledgeDetail />} />
        <Route path="tools" element={<ToolsList />} />
        <Route path="tools/new" element={<ToolEditor />} />
        <Route path="tools/edit/:id" element={<ToolEditor />} />
        <Route path="prompts" element={<PromptsList />} />
      </Routes>
    </div>
  );
}
