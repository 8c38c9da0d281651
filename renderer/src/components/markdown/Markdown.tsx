import { createContext, createElement, memo, useContext, useEffect, useMemo, useState, type ComponentProps, type ReactNode } from 'react';
import ReactMarkdown, { type Components, type Options } from 'react-markdown';
import rehypeSanitize, { defaultSchema } from 'rehype-sanitize';
import remarkGfm from 'remark-gfm';
import { Icon } from '../Icon';
import { copyText } from '../../lib/clipboard';
import { useT } from '../../lib/i18n';
import './markdown.css';
import { linkCitations } from './citation-links';
import { closeOpenMarkdown } from './close-open-markdown';
import { isSafeImageSource } from './image-source';
import { useCodeActions } from './code-actions';
import { normalizeMath } from './math-delimiters';
import { rehypeCode } from './rehype-code';

type Plugins = NonNullable<Options['remarkPlugins']>;
interface MathPlugins {
  remark: Plugins;
  rehype: Plugins;
}

// KaTeX is large: it loads only once an answer contains math.
let math: MathPlugins | null = null;
let mathLoading: Promise<MathPlugins> | null = null;
const MATH_HINT = /\$|\\\(|\\\[|\\begin\{/;

function loadMath(): Promise<MathPlugins> {
  mathLoading ??= Promise.all([import('remark-math'), import('rehype-katex'), import('katex/dist/katex.min.css')]).then(([rm, rk]) => {
    math = { remark: [[rm.default, { singleDollarTextMath: true }]], rehype: [[rk.default, { throwOnError: false, strict: false }]] };
    return math;
  });
  return mathLoading;
}

// Raw HTML needs an HTML parser (parse5): it also loads only when an answer contains tags.
let raw: Plugins | null = null;
let rawLoading: Promise<Plugins> | null = null;
const HTML_HINT = /<[a-zA-Z!/]/;

function loadRaw(): Promise<Plugins> {
  rawLoading ??= import('rehype-raw').then((m) => (raw = [m.default]));
  return rawLoading;
}

function useRaw(text: string): Plugins | null {
  const wanted = HTML_HINT.test(text);
  const [loaded, setLoaded] = useState(raw);
  useEffect(() => {
    if (wanted && !loaded) void loadRaw().then(setLoaded);
  }, [wanted, loaded]);
  return wanted ? loaded : null;
}

function useMath(text: string): MathPlugins | null {
  const wanted = MATH_HINT.test(text);
  const [loaded, setLoaded] = useState(math);
  useEffect(() => {
    if (wanted && !loaded) void loadMath().then(setLoaded);
  }, [wanted, loaded]);
  return wanted ? loaded : null;
}

// Raw HTML in answers is parsed, then sanitised (scripts, handlers, iframes and styles go) before math and highlighting.
const schema = {
  ...defaultSchema,
  attributes: {
    ...defaultSchema.attributes,
    code: [...(defaultSchema.attributes?.code ?? []), ['className', /^language-./, 'math-inline', 'math-display']],
    span: [...(defaultSchema.attributes?.span ?? []), ['className', 'math-inline', 'math-display']],
    div: [...(defaultSchema.attributes?.div ?? []), ['className', 'math-display']],
  },
};

function textOf(node: ReactNode): string {
  if (typeof node === 'string' || typeof node === 'number') return String(node);
  if (Array.isArray(node)) return node.map(textOf).join('');
  if (node && typeof node === 'object' && 'props' in node) return textOf((node.props as { children?: ReactNode }).children);
  return '';
}

/** True while the answer is still being written: code blocks offer no Run or Preview yet. */
const StreamingContext = createContext(false);

// react-markdown passes its syntax `node` to custom components: it never goes onto the DOM.
function CodeBlock({ children, node: _node, ...rest }: ComponentProps<'pre'> & { node?: unknown }) {
  const t = useT();
  const [copied, setCopied] = useState(false);
  const streaming = useContext(StreamingContext);
  const child = Array.isArray(children) ? children[0] : children;
  const className = child && typeof child === 'object' && 'props' in child ? ((child.props as { className?: string }).className ?? '') : '';
  const lang = /language-([\w-]+)/.exec(className)?.[1];
  const actions = useCodeActions(lang, textOf(children).replace(/\n$/, ''), streaming);
  if (lang === 'math') return <pre {...rest}>{children}</pre>;
  return (
    // Code reads left to right in every language.
    <div className="code-block" dir="ltr">
      <div className="code-head">
        <span>{lang ?? t('chat.codeText')}</span>
        {actions.buttons}
        <button
          type="button"
          className="code-copy"
          onClick={async () => {
            if (await copyText(textOf(children))) {
              setCopied(true);
              setTimeout(() => setCopied(false), 1500);
            }
          }}
          aria-label={t('chat.copyCode')}
        >
          <Icon name={copied ? 'check' : 'copy'} size={13} />
          {copied ? t('common.copied') : t('common.copy')}
        </button>
      </div>
      <pre {...rest}>{children}</pre>
      {actions.below}
    </div>
  );
}

/** A citation marker `[n]` in an answer: a button the sources panel listens to. */
function Cite({ n }: { n: string }) {
  const t = useT();
  return (
    <button type="button" className="cite" data-cite={n} aria-label={t('chat.sourceN', { n })}>
      {n}
    </button>
  );
}

/**
 * Block elements take their direction from their own text (`dir="auto"`): an Arabic answer that
 * quotes an English paragraph, or an English answer in a Hebrew UI, each reads the right way.
 */
const autoDirection = Object.fromEntries(
  ['p', 'li', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'th', 'td'].map((tag) => [tag, ({ node: _node, ...props }: { node?: unknown }) => createElement(tag, { ...props, dir: 'auto' })]),
) as Components;

const components: Components = {
  ...autoDirection,
  pre: CodeBlock,
  a: ({ href, children, node: _node, ...rest }) =>
    href?.startsWith('#cite-') ? (
      <Cite n={href.slice('#cite-'.length)} />
    ) : (
      <a href={href} target="_blank" rel="noopener noreferrer" {...rest}>
        {children}
      </a>
    ),
  // An image pointing at the service's own API would call it as the viewer (sign-out from a shared chat): its alt text instead.
  img: ({ node: _node, src, alt, ...rest }) => (isSafeImageSource(typeof src === 'string' ? src : undefined, window.location.href) ? <img src={src} alt={alt} {...rest} /> : <span>{alt}</span>),
  table: ({ children, node: _node, ...rest }) => (
    <div className="md-table">
      <table {...rest}>{children}</table>
    </div>
  ),
};

/**
 * Renders an answer: GitHub-flavoured markdown, code highlighting, KaTeX math, sanitised HTML.
 * While it `streaming`, markers the text has opened but not yet closed are closed for display.
 */
export const Markdown = memo(function Markdown({ text: raw, citations, streaming = false }: { text: string; citations?: number; streaming?: boolean }) {
  const text = useMemo(() => linkCitations(normalizeMath(streaming ? closeOpenMarkdown(raw) : raw), citations ?? 0), [raw, citations, streaming]);
  const m = useMath(text);
  const r = useRaw(text);
  return (
    <div className="markdown" dir="auto">
      <StreamingContext.Provider value={streaming}>
      <ReactMarkdown remarkPlugins={[remarkGfm, ...(m?.remark ?? [])]} rehypePlugins={[...(r ?? []), [rehypeSanitize, schema], ...(m?.rehype ?? []), rehypeCode]} components={components}>
        {text}
      </ReactMarkdown>
      </StreamingContext.Provider>
    </div>
  );
});

export default Markdown;
