/** What the flags of the main command parse to. */
export interface CliOptions {
  workDir?: string;
  addDir: string[];
  session?: string | true;
  resume?: string | true;
  continue?: boolean;
  config?: string;
  configFile?: string;
  model?: string;
  thinking?: boolean;
  yolo?: boolean;
  sandbox?: boolean;
  afk?: boolean;
  plan?: boolean;
  prompt?: string;
  /** Words given without a flag (`kimi-ts "fix the bug"`): the first prompt of an interactive run, or print mode's. */
  positionalPrompt?: string | undefined;
  print?: boolean;
  quiet?: boolean;
  wire?: boolean;
  inputFormat: 'text' | 'stream-json';
  outputFormat: 'text' | 'stream-json';
  finalMessageOnly?: boolean;
  agentFile?: string;
  mcpConfigFile: string[];
  mcpConfig: string[];
  maxStepsPerTurn?: number;
  maxRetriesPerStep?: number;
  maxRalphIterations?: number;
  skillsDir?: string;
  debug?: boolean;
  /**
   * The interactive front end: the terminal UI (default on a real terminal; `tui` asks for it) or the
   * line shell (`line`; also what TERM=dumb and a non-terminal stdin or stdout get).
   */
  ui?: 'line' | 'tui';
}
