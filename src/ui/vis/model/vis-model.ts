/**
 * The picture of a session that `kimi-ts vis` draws: what happened and when, derived from wire.jsonl.
 * Plain JSON (the server sends it, the exported HTML embeds it, the page draws it). Times are Unix
 * seconds, as in wire.jsonl. Text from the model or tools appears only in `label`s and is shortened;
 * the page renders every string as text.
 */

export type SpanKind = 'turn' | 'step' | 'model' | 'tool' | 'approval' | 'compaction' | 'subagent';

export type MarkerKind = 'retry' | 'compaction' | 'dmail' | 'rewind' | 'interrupt' | 'steer' | 'error';

/** One bar of the timeline. */
export interface VisSpan {
  kind: SpanKind;
  /** Index into `lanes`. */
  lane: number;
  start: number;
  /** Null while it is still running (the session was still being written). */
  end: number | null;
  label: string;
  /** Index of the event (0-based, in wire.jsonl after its header) that opened the span. */
  event: number;
  /** The step it belongs to (index into `steps`), if any. */
  step?: number;
  /** Tool spans: the tool's result was an error. */
  isError?: boolean;
  /** Tool spans: the event of the tool's result (ToolResult), once it came. */
  resultEvent?: number;
}

export interface VisMarker {
  kind: MarkerKind;
  lane: number;
  time: number;
  label: string;
  event: number;
}

export interface VisLane {
  /** `main`, or the subagent's agent id. */
  id: string;
  label: string;
  /** The lane this one is nested in (-1 for the main lane). */
  parent: number;
  depth: number;
}

export interface VisTokens {
  input: number;
  output: number;
  cached: number;
}

export interface VisStep {
  lane: number;
  /** 1-based turn number on its lane. */
  turn: number;
  /** The step number within its turn (StepBegin.n). */
  n: number;
  start: number;
  end: number | null;
  tokens: VisTokens;
  retries: number;
  toolCalls: number;
  event: number;
}

export interface VisTurn {
  lane: number;
  start: number;
  end: number | null;
  /** The user's input, shortened. */
  input: string;
  steps: number;
  event: number;
}

export interface VisContextPoint {
  time: number;
  /** 0..1 of the context window. */
  usage: number;
  tokens: number | null;
}

export interface VisSlowTool {
  name: string;
  seconds: number;
  /** Index into `spans`. */
  span: number;
}

export interface VisSummary {
  turns: number;
  steps: number;
  toolCalls: number;
  retries: number;
  compactions: number;
  dmails: number;
  approvals: number;
  subagents: number;
  tokens: VisTokens;
  /**
   * Seconds spent by kind on the main lane, each instant counted once (a tool waiting for its
   * approval is waiting, not working), so that model + tools + approvals + questions + otherInTurns +
   * betweenTurns = total. `waiting` is approvals + questions.
   */
  seconds: {
    model: number;
    tools: number;
    /** Waiting for the person to answer an approval. */
    approvals: number;
    /** Waiting for the person to answer a question (AskUserQuestion, a plan). */
    questions: number;
    waiting: number;
    /** Inside a turn with none of the above running (hooks, checkpoints, the loop's own work). */
    otherInTurns: number;
    /** No turn running: the person reading, typing, away. */
    betweenTurns: number;
    total: number;
  };
  maxContextUsage: number;
}

export interface VisModel {
  sessionId: string;
  title: string;
  protocolVersion: string;
  start: number;
  end: number;
  /** The file did not end with a closed turn: the session may still be running. */
  running: boolean;
  /** The last line was cut short (a crash while writing); everything before it is shown. */
  tornTail: boolean;
  /** Events read (lines after the header). */
  eventCount: number;
  /** Event types this version does not know, with their counts. */
  unknownTypes: Record<string, number>;
  /** Lines that could not be read, with their 1-based numbers (the first few). */
  problems: { line: number; message: string }[];
  lanes: VisLane[];
  turns: VisTurn[];
  steps: VisStep[];
  spans: VisSpan[];
  markers: VisMarker[];
  context: VisContextPoint[];
  compactionTimes: number[];
  slowestTools: VisSlowTool[];
  summary: VisSummary;
}
