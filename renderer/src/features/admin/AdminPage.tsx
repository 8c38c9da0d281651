import './admin.css';
import { NavLink, Navigate, Route, Routes, useLocation, useNavigate } from 'react-router';
import { NotFound } from '../../components/NotFound';
import { usePendingSignups } from '../../hooks/use-pending-signups';
import { useT, type StringKey } from '../../lib/i18n';
import { BuiltinPanel } from '../builtin/BuiltinPanel';
import { AudioPanel } from './AudioPanel';
import { AuthPanel } from './AuthPanel';
import { CodeExecutionPanel } from './CodeExecutionPanel';
import { ImagesPanel } from './ImagesPanel';
import { ConnectionsPanel } from './ConnectionsPanel';
import { GroupsPanel } from './GroupsPanel';
import { LanPanel } from './LanPanel';
import { OfflinePanel } from './OfflinePanel';
import { PermissionsPanel } from './PermissionsPanel';
import { RetrievalPanel } from './RetrievalPanel';
import { TasksPanel } from './TasksPanel';
import { ToolServersPanel } from './ToolServersPanel';
import { UsagePanel } from './UsagePanel';
import { UsersPanel } from './UsersPanel';
import { WebSearchPanel } from './WebSearchPanel';

const TABS: Array<{ path: string; label: StringKey }> = [
  { path: 'users', label: 'admin.users' },
  { path: 'groups', label: 'admin.groups' },
  { path: 'permissions', label: 'admin.permissionsTab' },
  { path: 'auth', label: 'admin.auth' },
  { path: 'connections', label: 'admin.connections' },
  { path: 'local-models', label: 'admin.localModels' },
  { path: 'audio', label: 'admin.audio' },
  { path: 'tool-servers', label: 'admin.toolServers' },
  { path: 'retrieval', label: 'admin.retrieval' },
  { path: 'web-search', label: 'admin.webSearch' },
  { path: 'tasks', label: 'admin.tasks' },
  { path: 'code', label: 'admin.code' },
  { path: 'images', label: 'admin.images' },
  { path: 'lan', label: 'admin.lan' },
  { path: 'api-usage', label: 'admin.apiUsage' },
];

/** Admin settings: one tab per area, each its own address (on phones, one menu instead of rows of tabs). */
export default function AdminPage() {
  const t = useT();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const pending = usePendingSignups(true);
  const current = TABS.find((tab) => pathname === `/admin/${tab.path}` || pathname.startsWith(`/admin/${tab.path}/`))?.path ?? '';
  return (
    <div className="page" style={{ maxWidth: 1100 }}>
      <div className="page-head">
        <h1>{t('admin.title')}</h1>
      </div>
      <nav className="tabs admin-tabs" aria-label={t('admin.title')}>
        {TABS.map((tab) => (
          <NavLink key={tab.path} to={`/admin/${tab.path}`} className={({ isActive }) => `tab${isActive ? ' active' : ''}`}>
            {t(tab.label)}
            {tab.path === 'users' && pending > 0 && (
              <span className="badge warning tab-badge" title={t('nav.pendingSignups', { count: pending })}>
                <span aria-hidden="true">{pending}</span>
                <span className="sr-only">{t('nav.pendingSignups', { count: pending })}</span>
              </span>
            )}
          </NavLink>
        ))}
      </nav>
      <div className="admin-section-picker">
        <select className="select" aria-label={t('admin.section')} value={current} onChange={(e) => navigate(`/admin/${e.target.value}`)}>
          {current === '' && <option value="" disabled>{t('admin.title')}</option>}
          {TABS.map((tab) => (
            <option key={tab.path} value={tab.path}>
              {tab.path === 'users' && pending > 0 ? `${t(tab.label)} (${pending})` : t(tab.label)}
            </option>
          ))}
        </select>
      </div>
      <Routes>
        <Route index element={<Navigate to="users" replace />} />
        <Route path="users" element={<UsersPanel />} />
        <Route path="groups" element={<GroupsPanel />} />
        <Route path="permissions" element={<PermissionsPanel />} />
        <Route path="auth" element={<AuthPanel />} />
        <Route path="connections" element={<ConnectionsPanel />} />
        <Route path="local-models" element={<BuiltinPanel />} />
        <Route path="audio" element={<AudioPanel />} />
        <Route path="tool-servers" element={<ToolServersPanel />} />
        <Route path="retrieval" element={<RetrievalPanel />} />
        <Route path="web-search" element={<WebSearchPanel />} />
        <Route path="tasks" element={<TasksPanel />} />
        <Route path="code" element={<CodeExecutionPanel />} />
        <Route path="images" element={<ImagesPanel />} />
        <Route
          path="lan"
          element={
            <>
              <LanPanel />
              <OfflinePanel />
            </>
          }
        />
        <Route path="api-usage" element={<UsagePanel />} />
        <Route path="*" element={<NotFound back={{ to: '/admin/users', label: t('admin.title') }} />} />
      </Routes>
    </div>
  );
}
