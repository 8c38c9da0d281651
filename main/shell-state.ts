import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

const Bounds = z.object({ x: z.number().int(), y: z.number().int(), width: z.number().int().positive(), height: z.number().int().positive() });

/** What the shell remembers between runs (in `<userData>/shell-state.json`). */
const ShellState = z.object({
  /** The main window's last normal bounds and whether it was maximised. */
  window: z.object({ bounds: Bounds, maximized: z.boolean() }).optional(),
  /** The loopback port of the last run: the UI's cookies and storage belong to that origin. */
  port: z.number().int().min(1).max(65_535).optional(),
  /** The language of the shell's menus and dialogs, as the UI last reported it. */
  language: z.string().max(20).optional(),
});
export type ShellState = z.infer<typeof ShellState>;

/** A small JSON file of shell state; a missing or damaged file reads as empty, never as an error. */
export function createStateStore(file: string) {
  let cached: ShellState | undefined;

  function read(): ShellState {
    if (cached) return cached;
    let state: ShellState = {};
    if (existsSync(file)) {
      try {
        const parsed = ShellState.safeParse(JSON.parse(readFileSync(file, 'utf8')));
        if (parsed.success) state = parsed.data;
      } catch {
        // damaged file: start from defaults, it is rewritten on the next change
      }
    }
    cached = state;
    return state;
  }

  return {
    read,
    /** Merges `patch` into the state and writes it atomically (temp file, then rename). */
    write(patch: Partial<ShellState>): void {
      const next = { ...read(), ...patch };
      mkdirSync(path.dirname(file), { recursive: true });
      const tmp = `${file}.${process.pid}.tmp`;
      writeFileSync(tmp, JSON.stringify(next, null, 2));
      renameSync(tmp, file);
      cached = next;
    },
  };
}
export type StateStore = ReturnType<typeof createStateStore>;
