import type { ComponentType, ReactElement } from 'react';
import { Trans } from 'react-i18next';
import { namespaceOf } from '../../locales/languages';
import { useT, type StringKey, type TextVars } from './index';
import { i18n } from './instance';

/** Trans with plain props: its own generic key types are heavier than TypeScript can check here. */
const PlainTrans = Trans as unknown as ComponentType<{ i18n: typeof i18n; ns: string; i18nKey: string; values?: TextVars; components: Record<string, ReactElement>; shouldUnescape: boolean }>;

/**
 * A catalog text with markup: `<strong>{{name}}</strong> is ready` renders its `<strong>` from
 * `tags` (`{ strong: <strong /> }`), so translators can move the marked words where their
 * language puts them. Placeholders are filled from `vars` and stay plain text.
 */
export function RichText({ k, vars, tags }: { k: StringKey; vars?: TextVars; tags: Record<string, ReactElement> }) {
  useT();
  return <PlainTrans i18n={i18n} ns={namespaceOf(k)} i18nKey={k} values={vars} components={tags} shouldUnescape={false} />;
}
