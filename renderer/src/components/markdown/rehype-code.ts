import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import cpp from 'highlight.js/lib/languages/cpp';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import go from 'highlight.js/lib/languages/go';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import markdown from 'highlight.js/lib/languages/markdown';
import python from 'highlight.js/lib/languages/python';
import rust from 'highlight.js/lib/languages/rust';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';
import type { Element, ElementContent, Root, RootContent } from 'hast';
import { createLowlight } from 'lowlight';

// A chosen set of languages keeps the chat's first load small (the full highlight.js set is ~10× larger).
const lowlight = createLowlight({ bash, c, cpp, css, diff, go, java, javascript, json, markdown, python, rust, sql, typescript, xml, yaml });
lowlight.registerAlias({ bash: ['sh', 'shell', 'zsh', 'console'], javascript: ['js', 'jsx', 'mjs'], typescript: ['ts', 'tsx'], python: ['py'], xml: ['html', 'svg'], yaml: ['yml'], cpp: ['c++', 'hpp', 'cc'], rust: ['rs'], markdown: ['md'] });

function textOf(node: ElementContent | RootContent): string {
  if (node.type === 'text') return node.value;
  if (node.type === 'element') return node.children.map(textOf).join('');
  return '';
}

function walk(node: Root | Element, visit: (el: Element, parent: Root | Element) => void): void {
  for (const child of node.children) {
    if (child.type === 'element') {
      visit(child, node);
      walk(child, visit);
    }
  }
}

/** Rehype plugin: highlights `<pre><code class="language-x">` blocks of the registered languages. */
export function rehypeCode() {
  return (tree: Root) => {
    walk(tree, (el, parent) => {
      if (el.tagName !== 'code' || parent.type !== 'element' || parent.tagName !== 'pre') return;
      const classes = Array.isArray(el.properties.className) ? el.properties.className.map(String) : [];
      const lang = classes.find((x) => x.startsWith('language-'))?.slice(9);
      if (!lang || !lowlight.registered(lang)) return;
      const result = lowlight.highlight(lang, textOf(el));
      el.children = result.children as ElementContent[];
      el.properties.className = [...classes, 'hljs'];
    });
  };
}
