import { Lexer, type Token, type Tokens } from 'marked';
import type { ComponentChildren } from 'preact';
import { useMemo } from 'preact/hooks';
import { type CodeToken, highlightCode } from './highlight.js';
import { safeLinkHref } from './safe-url.js';

/**
 * Markdown from the model, rendered without HTML: marked's lexer gives the token tree, and each token
 * becomes a Preact element whose text is a text node. Raw HTML in the answer (`<script>`,
 * `<img onerror>`) is shown as the characters it is; links keep only web and mail targets
 * (safe-url.ts); images are not loaded (a remote image is a tracking pixel) but shown as a link.
 */
export function MarkdownView({ text }: { text: string }) {
  const tokens = useMemo(() => Lexer.lex(text, { gfm: true }), [text]);
  return <div class="md">{renderBlocks(tokens)}</div>;
}

export function renderBlocks(tokens: readonly Token[]): ComponentChildren[] {
  return tokens.map((token, index) => renderBlock(token, index));
}

function renderBlock(token: Token, key: number): ComponentChildren {
  const t = token as Tokens.Generic;
  switch (token.type) {
    case 'space':
      return null;
    case 'paragraph':
      return <p key={key}>{renderInline((t as Tokens.Paragraph).tokens)}</p>;
    case 'heading': {
      const heading = t as Tokens.Heading;
      const Tag = `h${Math.min(6, Math.max(1, heading.depth))}` as 'h1';
      return <Tag key={key}>{renderInline(heading.tokens)}</Tag>;
    }
    case 'code': {
      const code = t as Tokens.Code;
      return <CodeBlock key={key} code={code.text} language={code.lang ?? ''} />;
    }
    case 'blockquote':
      return <blockquote key={key}>{renderBlocks((t as Tokens.Blockquote).tokens)}</blockquote>;
    case 'list':
      return renderList(t as Tokens.List, key);
    case 'table':
      return renderTable(t as Tokens.Table, key);
    case 'hr':
      return <hr key={key} />;
    case 'html':
      return (
        <pre key={key} class="raw-html">
          {(t as Tokens.HTML).text}
        </pre>
      );
    case 'text': {
      const text = t as Tokens.Text;
      return <p key={key}>{text.tokens ? renderInline(text.tokens) : decodeEntities(text.text)}</p>;
    }
    default:
      return <p key={key}>{t.raw}</p>;
  }
}

function renderList(list: Tokens.List, key: number): ComponentChildren {
  const items = list.items.map((item, index) => (
    <li key={index}>
      {item.task ? <input type="checkbox" checked={item.checked ?? false} disabled /> : null}
      {item.loose ? renderBlocks(item.tokens) : renderTight(item.tokens)}
    </li>
  ));
  if (list.ordered) {
    const start = typeof list.start === 'number' ? list.start : undefined;
    return (
      <ol key={key} start={start}>
        {items}
      </ol>
    );
  }
  return <ul key={key}>{items}</ul>;
}

/** A tight list item's text tokens are inline content, not paragraphs. */
function renderTight(tokens: readonly Token[]): ComponentChildren[] {
  return tokens.map((token, index) => {
    if (token.type === 'checkbox') return null;
    if (token.type === 'text') {
      const text = token as Tokens.Text;
      return <span key={index}>{text.tokens ? renderInline(text.tokens) : decodeEntities(text.text)}</span>;
    }
    return renderBlock(token, index);
  });
}

function renderTable(table: Tokens.Table, key: number): ComponentChildren {
  const align = (index: number) => table.align[index] ?? undefined;
  return (
    <div key={key} class="table-wrap">
      <table>
        <thead>
          <tr>
            {table.header.map((cell, i) => (
              <th key={i} style={align(i) ? { textAlign: align(i) } : undefined}>
                {renderInline(cell.tokens)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {table.rows.map((row, r) => (
            <tr key={r}>
              {row.map((cell, i) => (
                <td key={i} style={align(i) ? { textAlign: align(i) } : undefined}>
                  {renderInline(cell.tokens)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function renderInline(tokens: readonly Token[] | undefined): ComponentChildren[] {
  if (!tokens) return [];
  return tokens.map((token, key) => renderInlineToken(token, key));
}

function renderInlineToken(token: Token, key: number): ComponentChildren {
  const t = token as Tokens.Generic;
  switch (token.type) {
    case 'text': {
      const text = t as Tokens.Text;
      return text.tokens ? <span key={key}>{renderInline(text.tokens)}</span> : decodeEntities(text.text);
    }
    case 'escape':
      return (t as Tokens.Escape).text;
    case 'strong':
      return <strong key={key}>{renderInline((t as Tokens.Strong).tokens)}</strong>;
    case 'em':
      return <em key={key}>{renderInline((t as Tokens.Em).tokens)}</em>;
    case 'del':
      return <del key={key}>{renderInline((t as Tokens.Del).tokens)}</del>;
    case 'codespan':
      return <code key={key}>{(t as Tokens.Codespan).text}</code>;
    case 'br':
      return <br key={key} />;
    case 'link': {
      const link = t as Tokens.Link;
      const href = safeLinkHref(link.href);
      const children = renderInline(link.tokens);
      if (!href) return <span key={key}>{children}</span>;
      return (
        <a key={key} href={href} target="_blank" rel="noopener noreferrer nofollow">
          {children}
        </a>
      );
    }
    case 'image': {
      const image = t as Tokens.Image;
      const href = safeLinkHref(image.href);
      const label = `[image: ${image.text || image.href}]`;
      if (!href) return <span key={key}>{label}</span>;
      return (
        <a key={key} href={href} target="_blank" rel="noopener noreferrer nofollow">
          {label}
        </a>
      );
    }
    case 'html':
      // Inline HTML from the model: its characters, never markup.
      return <span key={key}>{(t as Tokens.HTML).text}</span>;
    default:
      return t.raw;
  }
}

export function CodeBlock({ code, language }: { code: string; language: string }) {
  const tokens = useMemo(() => highlightCode(code, language), [code, language]);
  return (
    <pre class="code">
      <code data-language={language || undefined}>{renderCodeTokens(tokens)}</code>
    </pre>
  );
}

function renderCodeTokens(tokens: readonly CodeToken[]): ComponentChildren[] {
  return tokens.map((token, key) =>
    typeof token === 'string' ? (
      token
    ) : (
      <span key={key} class={scopeClass(token.scope)}>
        {renderCodeTokens(token.children)}
      </span>
    ),
  );
}

/** `title function_` → `hljs-title function_`, as highlight.js's stylesheets expect. */
function scopeClass(scope: string): string {
  return scope
    .split(' ')
    .filter((part) => /^[a-z0-9_.-]+$/.test(part))
    .map((part, index) => (index === 0 && !part.startsWith('hljs-') ? `hljs-${part}` : part))
    .join(' ');
}

const NAMED_ENTITIES: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
};

/** Markdown text may carry character references (`&amp;`); they become the characters, as text. */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,6});/gi, (match, body: string) => {
    if (body[0] === '#') {
      const code =
        body[1] === 'x' || body[1] === 'X' ? Number.parseInt(body.slice(2), 16) : Number(body.slice(1));
      return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff)
        ? String.fromCodePoint(code)
        : match;
    }
    return NAMED_ENTITIES[body.toLowerCase()] ?? match;
  });
}
