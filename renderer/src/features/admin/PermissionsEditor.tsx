import type { PartialPermissions, Permissions } from '../../../../server/contracts/permissions';
import { Switch } from '../../components/Field';
import { useT, type StringKey } from '../../lib/i18n';

const GROUPS: Array<{ key: keyof Permissions; label: StringKey; leaves: string[] }> = [
  { key: 'workspace', label: 'admin.permWorkspace', leaves: ['models', 'knowledge', 'prompts', 'tools'] },
  { key: 'sharing', label: 'admin.permSharing', leaves: ['public_models', 'public_knowledge', 'public_tools'] },
  { key: 'chat', label: 'admin.permChat', leaves: ['file_upload', 'delete', 'share', 'export'] },
  { key: 'features', label: 'admin.permFeatures', leaves: ['web_search', 'image_generation', 'code_interpreter', 'channels'] },
];

const label = (leaf: string) => leaf.replace(/_/g, ' ').replace(/^\w/, (c) => c.toUpperCase());

/** Switches for every permission leaf (full or partial objects). */
export function PermissionsEditor({ value, onChange }: { value: PartialPermissions; onChange: (next: PartialPermissions) => void }) {
  const t = useT();
  return (
    <div className="form-grid" style={{ gridTemplateColumns: 'repeat(auto-fill, minmax(200px, 1fr))' }}>
      {GROUPS.map((g) => {
        const section = (value[g.key] ?? {}) as Record<string, boolean | undefined>;
        return (
          <fieldset key={g.key} className="col" style={{ border: 0, padding: 0, margin: 0, gap: 8 }}>
            <legend className="field-label" style={{ marginBottom: 8 }}>
              {t(g.label)}
            </legend>
            {g.leaves.map((leaf) => (
              <Switch key={leaf} label={label(leaf)} checked={section[leaf] === true} onChange={(v) => onChange({ ...value, [g.key]: { ...section, [leaf]: v } })} />
            ))}
          </fieldset>
        );
      })}
    </div>
  );
}
