import type { KeyboardEvent } from 'react';

/** A list of choices shown under a text box (`@` mentions, `/` prompts) and its highlighted item. */
export interface KeyedList<T> {
  items: T[];
  cursor: number;
  setCursor: (update: (cursor: number) => number) => void;
  pick: (item: T) => void;
  close: () => void;
}

/**
 * The list's keys, for the text box's key handler: arrows move the highlight (wrapping), Enter
 * or Tab picks it, Escape closes the list. True when the key was the list's.
 */
export function listKeyDown<T>(e: KeyboardEvent, list: KeyedList<T>): boolean {
  const { items } = list;
  if (items.length === 0) return false;
  if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
    e.preventDefault();
    list.setCursor((c) => (c + (e.key === 'ArrowDown' ? 1 : items.length - 1)) % items.length);
    return true;
  }
  if ((e.key === 'Enter' || e.key === 'Tab') && !e.shiftKey) {
    e.preventDefault();
    list.pick(items[Math.min(list.cursor, items.length - 1)]!);
    return true;
  }
  if (e.key === 'Escape') {
    e.preventDefault();
    list.close();
    return true;
  }
  return false;
}

/** A menu's keys (`role="menu"`): up and down move the focus between its entries, wrapping. */
export function menuKeyDown(e: KeyboardEvent<HTMLElement>): void {
  if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
  e.preventDefault();
  e.stopPropagation();
  const entries = [...e.currentTarget.querySelectorAll<HTMLElement>('[role="menuitem"]')];
  const at = entries.indexOf(document.activeElement as HTMLElement);
  entries[(at + (e.key === 'ArrowDown' ? 1 : entries.length - 1)) % entries.length]?.focus();
}
