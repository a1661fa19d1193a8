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
  /** The interactive front end: the line shell (default) or the terminal UI (`tui`, on a real terminal only). */
  ui?: 'line' | 'tui';
}
