import { compileGlob } from './glob-regex.js';

/**
 * File types for `type` in the built-in search: the common subset of ripgrep's type list, as name
 * globs. ripgrep itself knows many more; with the fallback an unknown name is an error, as in rg.
 */
const TYPE_GLOBS: Record<string, readonly string[]> = {
  c: ['*.[chH]', '*.[chH].in', '*.cats'],
  cpp: ['*.[ChH]', '*.cc', '*.[ch]pp', '*.[ch]xx', '*.hh', '*.inl', '*.[ChH].in', '*.cc.in', '*.[ch]pp.in'],
  cs: ['*.cs'],
  css: ['*.css', '*.scss'],
  csv: ['*.csv'],
  dart: ['*.dart'],
  docker: ['*Dockerfile*'],
  elixir: ['*.ex', '*.eex', '*.exs', '*.heex', '*.leex', '*.livemd'],
  go: ['*.go'],
  h: ['*.h', '*.hh', '*.hpp'],
  haskell: ['*.hs', '*.lhs', '*.cpphs', '*.c2hs', '*.hsc'],
  html: ['*.htm', '*.html', '*.ejs'],
  java: ['*.java', '*.jsp', '*.jspx', '*.properties'],
  js: ['*.js', '*.jsx', '*.vue', '*.cjs', '*.mjs'],
  json: ['*.json', 'composer.lock', '*.sarif'],
  jsonl: ['*.jsonl'],
  kotlin: ['*.kt', '*.kts'],
  lua: ['*.lua'],
  make: ['[Gg][Nn][Uu]makefile', '[Mm]akefile', '[Gg][Nn][Uu]makefile.am', '[Mm]akefile.am', '*.mk', '*.mak'],
  markdown: ['*.markdown', '*.md', '*.mdown', '*.mdwn', '*.mkd', '*.mkdn', '*.mdx'],
  md: ['*.markdown', '*.md', '*.mdown', '*.mdwn', '*.mkd', '*.mkdn', '*.mdx'],
  php: ['*.php', '*.php3', '*.php4', '*.php5', '*.phtml'],
  py: ['*.py', '*.pyi'],
  python: ['*.py', '*.pyi'],
  r: ['*.R', '*.r', '*.Rmd', '*.Rnw'],
  rb: ['Gemfile', '*.gemspec', '.irbrc', 'Rakefile', '*.rb'],
  ruby: ['Gemfile', '*.gemspec', '.irbrc', 'Rakefile', '*.rb'],
  rust: ['*.rs'],
  scala: ['*.scala', '*.sbt'],
  sh: ['*.bash', '*.bashrc', '.bash_profile', '.bashrc', '*.sh', '.zshrc', '*.zsh', '.profile'],
  sql: ['*.sql', '*.psql'],
  svelte: ['*.svelte'],
  swift: ['*.swift'],
  toml: ['*.toml', 'Cargo.lock'],
  ts: ['*.ts', '*.tsx', '*.cts', '*.mts'],
  typescript: ['*.ts', '*.tsx', '*.cts', '*.mts'],
  txt: ['*.txt'],
  vue: ['*.vue'],
  xml: ['*.xml', '*.xml.dist', '*.dtd', '*.xsl', '*.xslt', '*.xsd', '*.xjb', '*.rng', '*.sch', '*.xhtml'],
  yaml: ['*.yaml', '*.yml'],
  zig: ['*.zig'],
};

/** A test for file names of the type, or null if the type is unknown. */
export function fileTypeMatcher(type: string): ((name: string) => boolean) | null {
  const globs = TYPE_GLOBS[type];
  if (!globs) return null;
  return compileGlob(globs);
}
