import type { PartialPermissions, Permissions } from '../../../../server/contracts/permissions';
import { useFeatureWorks } from '../../app/feature-switches';
import { Switch } from '../../components/Field';
import { useT, type StringKey } from '../../lib/i18n';

/** The permission groups and their leaves, each with its label. */
const GROUPS: Array<{ key: keyof Permissions; label: StringKey; leaves: Array<[string, StringKey]> }> = [
  {
    key: 'workspace',
    label: 'admin.permWorkspace',
    leaves: [
      ['models', 'admin.perm.models'],
      ['knowledge', 'admin.perm.knowledge'],
      ['prompts', 'admin.perm.prompts'],
      ['tools', 'admin.perm.tools'],
    ],
  },
  {
    key: 'sharing',
    label: 'admin.permSharing',
    leaves: [
      ['public_models', 'admin.perm.publicModels'],
      ['public_knowledge', 'admin.perm.publicKnowledge'],
      ['public_tools', 'admin.perm.publicTools'],
      ['public_notes', 'admin.perm.publicNotes'],
    ],
  },
  {
    key: 'chat',
    label: 'admin.permChat',
    leaves: [
      ['file_upload', 'admin.perm.fileUpload'],
      ['delete', 'admin.perm.delete'],
      ['share', 'admin.perm.share'],
      ['export', 'admin.perm.export'],
    ],
  },
  {
    key: 'features',
    label: 'admin.permFeatures',
    leaves: [
      ['web_search', 'admin.perm.webSearch'],
      ['image_generation', 'admin.perm.imageGeneration'],
      ['code_interpreter', 'admin.perm.codeInterpreter'],
      ['notes', 'admin.perm.notes'],
      ['memories', 'admin.perm.memories'],
      ['channels', 'admin.perm.channels'],
    ],
  },
];

/**
 * Switches for every permission leaf (full or partial objects) whose feature works on this
 * service: a hidden leaf keeps its stored value.
 */
export function PermissionsEditor({ value, onChange }: { value: PartialPermissions; onChange: (next: PartialPermissions) => void }) {
  const t = useT();
  const works = useFeatureWorks();
  return (
    <div className="form-grid" style={{ gridTemplateColumns: 'repeat(auto-fill, minmax(200px, 1fr))' }}>
      {GROUPS.map((g) => {
        const section = (value[g.key] ?? {}) as Record<string, boolean | undefined>;
        const leaves = g.leaves.filter(([leaf]) => works(leaf));
        if (leaves.length === 0) return null;
        return (
          <fieldset key={g.key} data-testid={`permissions-${g.key}`} className="col" style={{ border: 0, padding: 0, margin: 0, gap: 8 }}>
            <legend className="field-label" style={{ marginBottom: 8 }}>
              {t(g.label)}
            </legend>
            {leaves.map(([leaf, label]) => (
              <Switch key={leaf} label={t(label)} checked={section[leaf] === true} onChange={(v) => onChange({ ...value, [g.key]: { ...section, [leaf]: v } })} />
            ))}
          </fieldset>
        );
      })}
    </div>
  );
}
