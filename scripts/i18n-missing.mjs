#!/usr/bin/env node
// A translator's view of one language: the English entries its catalogs lack, by namespace, and
// the keys it holds that English no longer has. With --write, the missing entries are added in
// English's key order from a JSON file of translations ({"<namespace>": {"<key>": "<text>"}}),
// and the stale keys are removed.
//
//   node scripts/i18n-missing.mjs fr                   # prints {"chat": {"chat.send": "Send"}, …}
//   node scripts/i18n-missing.mjs fr --write done.json # merges done.json into locales/fr/*.json
//
// Plural keys: English has `_one`/`_other`; a language writes the forms Intl.PluralRules gives it
// (`_few`, `_many`… for Polish, Russian, Ukrainian, Arabic; `_other` only for Japanese, Chinese…).
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const locales = path.join(here, '..', 'renderer', 'src', 'locales');
const PLURAL = /_(zero|one|two|few|many|other)$/;

const [code, flag, file] = process.argv.slice(2);
if (!code || (flag && flag !== '--write') || (flag && !file)) {
  process.stderr.write('usage: node scripts/i18n-missing.mjs <language> [--write translations.json]\n');
  process.exit(2);
}

const read = (lng, ns) => {
  const p = path.join(locales, lng, `${ns}.json`);
  return existsSync(p) ? JSON.parse(readFileSync(p, 'utf8')) : {};
};
const baseOf = (key) => key.replace(PLURAL, '');
const namespaces = readdirSync(path.join(locales, 'en'))
  .filter((f) => f.endsWith('.json'))
  .map((f) => f.slice(0, -'.json'.length));

if (!flag) {
  const missing = {};
  const stale = {};
  for (const ns of namespaces) {
    const en = read('en', ns);
    const target = read(code, ns);
    const bases = new Set(Object.keys(target).map(baseOf));
    const enBases = new Set(Object.keys(en).map(baseOf));
    const lacking = Object.entries(en).filter(([key]) => !bases.has(baseOf(key)));
    if (lacking.length) missing[ns] = Object.fromEntries(lacking);
    const extra = Object.keys(target).filter((key) => !enBases.has(baseOf(key)));
    if (extra.length) stale[ns] = extra;
  }
  process.stdout.write(`${JSON.stringify({ missing, stale }, null, 2)}\n`);
  process.exit(0);
}

const translations = JSON.parse(readFileSync(file, 'utf8'));
mkdirSync(path.join(locales, code), { recursive: true });
for (const ns of namespaces) {
  const en = read('en', ns);
  const merged = { ...read(code, ns), ...(translations[ns] ?? {}) };
  const enBases = new Set(Object.keys(en).map(baseOf));
  // English's order, each base's forms together; keys English no longer has are dropped.
  const ordered = {};
  for (const key of Object.keys(en)) {
    const base = baseOf(key);
    for (const [k, v] of Object.entries(merged)) if (baseOf(k) === base && !(k in ordered)) ordered[k] = v;
  }
  for (const [k, v] of Object.entries(merged)) if (enBases.has(baseOf(k)) && !(k in ordered)) ordered[k] = v;
  writeFileSync(path.join(locales, code, `${ns}.json`), `${JSON.stringify(ordered, null, 2)}\n`);
}
process.stdout.write(`wrote ${code}\n`);
