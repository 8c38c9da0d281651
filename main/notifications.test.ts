import { describe, expect, it } from 'vitest';
import type { DesktopNotice } from '../server/contracts/desktop';
import { desktopNotice, showNotice, type NotificationLike } from './notifications';
import { createShellText } from './shell-text';

const NOTICE: DesktopNotice = { kind: 'channel-mention', channel_id: 'c-1', channel_name: 'launch', author: 'Ann', preview: 'Can you check the numbers?', everyone: false };

function fakeNotifications() {
  const shown: Array<{ title: string; body: string; click: () => void }> = [];
  const create = (options: { title: string; body: string }): NotificationLike => {
    const entry = { ...options, click: () => undefined as void };
    return {
      show: () => void shown.push(entry),
      on: (_event, listener) => {
        entry.click = listener;
      },
    };
  };
  return { shown, create };
}

describe('desktop notifications of mentions', () => {
  it('are worded from the desktop catalogs in the person’s language, the message as the body', () => {
    const { shown, create } = fakeNotifications();
    showNotice(NOTICE, { create, text: createShellText(['en']), open: () => undefined });
    showNotice({ ...NOTICE, everyone: true }, { create, text: createShellText(['de']), open: () => undefined });
    expect(shown.map(({ title, body }) => ({ title, body }))).toEqual([
      { title: 'Ann mentioned you in #launch', body: 'Can you check the numbers?' },
      { title: 'Ann hat alle in #launch benachrichtigt', body: 'Can you check the numbers?' },
    ]);
  });

  it('open the channel when clicked', () => {
    const { shown, create } = fakeNotifications();
    const opened: string[] = [];
    showNotice(NOTICE, { create, text: createShellText(), open: (path) => opened.push(path) });
    shown[0]!.click();
    expect(opened).toEqual(['/channels/c-1']);
  });

  it('take only well-formed notices, with texts cut to length', () => {
    expect(desktopNotice({ ...NOTICE, preview: 'x'.repeat(5000), author: 'A'.repeat(500) })).toMatchObject({ preview: 'x'.repeat(200), author: 'A'.repeat(120) });
    for (const junk of [undefined, [], { ...NOTICE, channel_id: 'a/b' }, { ...NOTICE, kind: 'x' }, { ...NOTICE, author: 1 }]) expect(desktopNotice(junk)).toBeUndefined();
  });
});
