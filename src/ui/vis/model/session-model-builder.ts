import { assertNever } from '../../../util/assert-never.js';
import { EVENT_TYPES } from '../../../wire/events.js';
import type { WireMessageType } from '../../../wire/message.js';
import { REQUEST_TYPES } from '../../../wire/requests.js';
import { isRecord, num, rewindLabel, shorten, toolLabel, userInputText } from './labels.js';
import { type LaneState, newLaneState } from './lane-state.js';
import { LineProblems, streamedPartTime } from './line-problems.js';
import { summarise } from './model-summary.js';
import { TimelineRecorder } from './timeline-recorder.js';
import type { VisLane, VisModel, VisStep, VisTurn } from './vis-model.js';

const KNOWN_TYPES: ReadonlySet<string> = new Set<string>([...EVENT_TYPES, ...REQUEST_TYPES]);

/**
 * Builds a `VisModel` from wire.jsonl lines, fed one at a time (streamed, never held whole). Every event
 * costs O(1), so a 10,000-step session is linear. Tolerant: unknown event types are counted, bad lines
 * reported, a torn last line flagged, and a session still being written keeps open spans `end: null`.
 */
export class SessionModelBuilder {
  private readonly lanes: VisLane[] = [{ id: 'main', label: 'main agent', parent: -1, depth: 0 }];
  private readonly laneStates: LaneState[] = [newLaneState(0)];
  private readonly laneByKey = new Map<string, number>();
  private readonly turns: VisTurn[] = [];
  private readonly steps: VisStep[] = [];
  /** The bars and markers drawn on the timeline. */
  private readonly timeline = new TimelineRecorder();
  private readonly context: VisModel['context'] = [];
  private readonly compactionTimes: number[] = [];
  private readonly unknownTypes: Record<string, number> = {};
  private readonly problems = new LineProblems();
  private protocolVersion = '1.1';
  private lineNumber = 0;
  private eventCount = 0;
  private sawContent = false;
  private start = Number.POSITIVE_INFINITY;
  private end = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly sessionId: string,
    private readonly title: string,
    /** Labels for subagent lanes, by agent id (from the subagents' meta.json). */
    private readonly laneLabels: ReadonlyMap<string, string> = new Map(),
  ) {}

  /**
   * Reads one line of wire.jsonl. Returns whether it counts as an event (every non-empty line after
   * the header does, readable or not), so a caller can keep the raw lines with the same indices.
   */
  addLine(line: string): boolean {
    this.lineNumber++;
    const text = line.trim();
    if (text === '') return false;
    this.problems.flush();
    if (this.streamedPart(text)) return true;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.problems.badJson(this.lineNumber);
      this.eventCount++;
      return true;
    }
    if (!this.sawContent && isRecord(value) && value.type === 'metadata') {
      this.sawContent = true;
      if (typeof value.protocol_version === 'string') this.protocolVersion = value.protocol_version;
      return false;
    }
    this.sawContent = true;
    const event = this.eventCount++;
    const record = isRecord(value) ? value : {};
    const message = record.message;
    if (typeof record.timestamp !== 'number' || !isRecord(message) || typeof message.type !== 'string') {
      this.problems.add(this.lineNumber, 'Not a wire record ({timestamp, message: {type, payload}}).');
      return true;
    }
    const time = record.timestamp;
    if (time < this.start) this.start = time;
    if (time > this.end) this.end = time;
    this.handle(this.laneStates[0]!, message.type, message.payload, time, event);
    return true;
  }

  /** A streamed part needs only its time (see `streamedPartTime`). */
  private streamedPart(text: string): boolean {
    const time = streamedPartTime(text);
    if (time === null) return false;
    this.sawContent = true;
    this.eventCount++;
    this.start = Math.min(this.start, time);
    this.end = Math.max(this.end, time);
    this.laneStates[0]!.lastOutput = time;
    return true;
  }

  /** `terminated`: the file ended with a newline (otherwise its last line may be torn). */
  finish(terminated: boolean): VisModel {
    const tornTail = this.problems.finish(this.lineNumber, terminated);
    if (!Number.isFinite(this.start)) this.start = this.end = 0;
    const main = this.laneStates[0]!;
    const running = main.turn !== null;
    const model: Omit<VisModel, 'summary' | 'slowestTools'> = {
      sessionId: this.sessionId,
      title: this.title,
      protocolVersion: this.protocolVersion,
      start: this.start,
      end: this.end,
      running,
      tornTail,
      eventCount: this.eventCount,
      unknownTypes: this.unknownTypes,
      problems: this.problems.list,
      lanes: this.lanes,
      turns: this.turns,
      steps: this.steps,
      spans: this.timeline.spans,
      markers: this.timeline.markers,
      context: this.context,
      compactionTimes: this.compactionTimes,
    };
    const { summary, slowestTools } = summarise(model);
    return { ...model, summary, slowestTools };
  }

  private handle(lane: LaneState, rawType: string, payload: unknown, time: number, event: number): void {
    if (!KNOWN_TYPES.has(rawType)) {
      this.unknownTypes[rawType] = (this.unknownTypes[rawType] ?? 0) + 1;
      return;
    }
    const p = isRecord(payload) ? payload : {};
    const type = rawType as WireMessageType;
    switch (type) {
      case 'TurnBegin':
        this.closeTurn(lane, time);
        this.openTurn(lane, userInputText(p.user_input), time, event);
        return;
      case 'SteerInput':
        this.timeline.mark(
          lane.lane,
          'steer',
          time,
          `steer: ${shorten(userInputText(p.user_input), 60)}`,
          event,
        );
        return;
      case 'TurnEnd':
        this.closeTurn(lane, time);
        return;
      case 'StepBegin':
        this.openStep(lane, typeof p.n === 'number' ? p.n : 0, time, event);
        return;
      case 'StepInterrupted':
        this.timeline.mark(lane.lane, 'interrupt', time, 'step interrupted', event);
        this.closeStep(lane, time);
        return;
      case 'StepRetry':
        this.retry(lane, p, time, event);
        return;
      case 'StatusUpdate':
        this.status(lane, p, time);
        return;
      case 'ContentPart':
      case 'ToolCallPart':
        lane.lastOutput = time;
        return;
      case 'ToolCall':
        this.toolCall(lane, p, time, event);
        return;
      case 'ToolResult':
        this.toolResult(lane, p, time, event);
        return;
      case 'ApprovalRequest':
      case 'QuestionRequest':
        this.openWait(lane, type, p, time, event);
        return;
      case 'ApprovalResponse':
        this.closeWait(lane, lane.waits.get(String(p.request_id)), time, String(p.response ?? ''));
        return;
      case 'CompactionBegin':
        this.timeline.close(lane.compaction, time);
        lane.compaction = this.timeline.open('compaction', lane.lane, time, 'compaction', event);
        return;
      case 'CompactionEnd':
        this.timeline.close(lane.compaction, time);
        lane.compaction = null;
        this.timeline.mark(lane.lane, 'compaction', time, 'context compacted', event);
        if (lane.lane === 0) this.compactionTimes.push(time);
        return;
      case 'SubagentEvent':
        this.subagentEvent(lane, p, time, event);
        return;
      case 'RewindDone':
        this.timeline.mark(lane.lane, 'rewind', time, rewindLabel(p), event);
        return;
      case 'ToolOutput': // live output, never recorded in wire.jsonl
      case 'HookTriggered':
      case 'HookResolved':
      case 'MCPLoadingBegin':
      case 'MCPLoadingEnd':
      case 'Notification':
      case 'PlanDisplay':
      case 'BtwBegin':
      case 'BtwEnd':
      case 'ToolCallRequest':
      case 'HookRequest':
        return;
    }
    assertNever(type, 'wire message type');
  }

  private openTurn(lane: LaneState, input: string, time: number, event: number): void {
    lane.turnCount++;
    const span = this.timeline.open(
      'turn',
      lane.lane,
      time,
      `turn ${lane.turnCount}: ${shorten(input, 60)}`,
      event,
    );
    lane.turn = { index: this.turns.length, span };
    this.turns.push({ lane: lane.lane, start: time, end: null, input: shorten(input, 200), steps: 0, event });
  }

  private closeTurn(lane: LaneState, time: number): void {
    this.closeStep(lane, time);
    // Nothing waits for the user past the end of its turn (a question's answer is not recorded).
    for (const span of lane.waits.values()) this.timeline.close(span, time);
    for (const span of lane.waitsByToolCall.values()) this.timeline.close(span, time);
    lane.waits.clear();
    lane.waitsByToolCall.clear();
    if (!lane.turn) return;
    this.turns[lane.turn.index]!.end = time;
    this.timeline.close(lane.turn.span, time);
    lane.turn = null;
  }

  private openStep(lane: LaneState, n: number, time: number, event: number): void {
    this.closeStep(lane, time);
    if (!lane.turn) this.openTurn(lane, '(no TurnBegin)', time, event);
    const turn = this.turns[lane.turn!.index]!;
    turn.steps++;
    const index = this.steps.length;
    this.steps.push({
      lane: lane.lane,
      turn: lane.turnCount,
      n,
      start: time,
      end: null,
      tokens: { input: 0, output: 0, cached: 0 },
      retries: 0,
      toolCalls: 0,
      event,
    });
    lane.step = { index, span: this.timeline.open('step', lane.lane, time, `step ${n}`, event, index) };
    lane.model = this.timeline.open('model', lane.lane, time, 'model call', event, index);
    lane.lastOutput = null;
  }

  private closeStep(lane: LaneState, time: number): void {
    this.closeModel(lane, lane.lastOutput ?? time);
    for (const span of lane.tools.values()) this.timeline.close(span, time);
    lane.tools.clear();
    if (!lane.step) return;
    this.steps[lane.step.index]!.end = time;
    this.timeline.close(lane.step.span, time);
    lane.step = null;
  }

  private closeModel(lane: LaneState, time: number): void {
    if (lane.model === null) return;
    const span = this.timeline.spans[lane.model]!;
    span.end = Math.max(span.start, time);
    lane.model = null;
  }

  private retry(lane: LaneState, p: Record<string, unknown>, time: number, event: number): void {
    const status = typeof p.status_code === 'number' ? ` ${p.status_code}` : '';
    const label = `retry ${String(p.next_attempt ?? '?')}/${String(p.max_attempts ?? '?')}: ${String(p.error_type ?? 'error')}${status}`;
    this.timeline.mark(lane.lane, 'retry', time, shorten(label), event);
    if (lane.model !== null) this.timeline.spans[lane.model]!.isError = true;
    this.closeModel(lane, time);
    if (!lane.step) return;
    this.steps[lane.step.index]!.retries++;
    const wait = typeof p.wait_s === 'number' && p.wait_s > 0 ? p.wait_s : 0;
    lane.model = this.timeline.open(
      'model',
      lane.lane,
      time + wait,
      'model call (retry)',
      event,
      lane.step.index,
    );
    lane.lastOutput = null;
  }

  private status(lane: LaneState, p: Record<string, unknown>, time: number): void {
    const usage = isRecord(p.token_usage) ? p.token_usage : null;
    if (usage && lane.step) {
      const tokens = this.steps[lane.step.index]!.tokens;
      tokens.input += num(usage.input_other) + num(usage.input_cache_creation);
      tokens.output += num(usage.output);
      tokens.cached += num(usage.input_cache_read);
      this.closeModel(lane, time);
    }
    if (lane.lane === 0 && typeof p.context_usage === 'number') {
      const tokens = typeof p.context_tokens === 'number' ? p.context_tokens : null;
      this.context.push({ time, usage: p.context_usage, tokens });
    }
  }

  private toolCall(lane: LaneState, p: Record<string, unknown>, time: number, event: number): void {
    lane.lastOutput = time;
    const fn = isRecord(p.function) ? p.function : {};
    const name = typeof fn.name === 'string' ? fn.name : 'tool';
    const id = typeof p.id === 'string' ? p.id : `#${event}`;
    const step = lane.step?.index;
    if (step !== undefined) this.steps[step]!.toolCalls++;
    lane.tools.set(
      id,
      this.timeline.open('tool', lane.lane, time, toolLabel(name, fn.arguments), event, step),
    );
    if (name === 'SendDMail') lane.dmailCalls.add(id);
  }

  private toolResult(lane: LaneState, p: Record<string, unknown>, time: number, event: number): void {
    const id = String(p.tool_call_id);
    const span = lane.tools.get(id);
    const result = isRecord(p.return_value) ? p.return_value : {};
    if (span !== undefined) {
      this.timeline.closeTool(span, time, event, result.is_error === true);
      lane.tools.delete(id);
    }
    this.closeWait(lane, lane.waitsByToolCall.get(id), time, '');
    if (lane.dmailCalls.delete(id) && result.is_error !== true) {
      this.timeline.mark(lane.lane, 'dmail', time, 'D-Mail: context reverted to a checkpoint', event);
    }
  }

  private openWait(
    lane: LaneState,
    type: 'ApprovalRequest' | 'QuestionRequest',
    p: Record<string, unknown>,
    time: number,
    event: number,
  ): void {
    const label =
      type === 'ApprovalRequest'
        ? shorten(`approval: ${String(p.sender ?? '')} ${String(p.action ?? '')}`)
        : 'question to the user';
    const span = this.timeline.open('approval', lane.lane, time, label, event, lane.step?.index);
    if (typeof p.id === 'string') lane.waits.set(p.id, span);
    if (typeof p.tool_call_id === 'string') lane.waitsByToolCall.set(p.tool_call_id, span);
  }

  private closeWait(lane: LaneState, span: number | undefined, time: number, response: string): void {
    if (span === undefined) return;
    const bar = this.timeline.spans[span]!;
    if (bar.end === null) {
      bar.end = time;
      if (response) bar.label = shorten(`${bar.label} → ${response}`);
      if (response === 'reject') bar.isError = true;
    }
    for (const [key, value] of lane.waits) if (value === span) lane.waits.delete(key);
    for (const [key, value] of lane.waitsByToolCall) if (value === span) lane.waitsByToolCall.delete(key);
  }

  private subagentEvent(parent: LaneState, p: Record<string, unknown>, time: number, event: number): void {
    const nested = isRecord(p.event) ? p.event : null;
    if (!nested || typeof nested.type !== 'string') return;
    const agentId = typeof p.agent_id === 'string' ? p.agent_id : null;
    const key = `${parent.lane}/${agentId ?? String(p.parent_tool_call_id ?? 'subagent')}`;
    let laneIndex = this.laneByKey.get(key);
    if (laneIndex === undefined) {
      laneIndex = this.lanes.length;
      const type = typeof p.subagent_type === 'string' ? p.subagent_type : 'subagent';
      const label = (agentId && this.laneLabels.get(agentId)) || `${type} ${agentId ?? ''}`.trim();
      const parentLane = this.lanes[parent.lane]!;
      this.lanes.push({
        id: agentId ?? key,
        label: shorten(label, 60),
        parent: parent.lane,
        depth: parentLane.depth + 1,
      });
      this.laneByKey.set(key, laneIndex);
      const state = newLaneState(laneIndex);
      state.lifeSpan = this.timeline.open(
        'subagent',
        parent.lane,
        time,
        `subagent: ${shorten(label, 60)}`,
        event,
      );
      this.laneStates.push(state);
    }
    const lane = this.laneStates[laneIndex]!;
    this.timeline.spans[lane.lifeSpan!]!.end = time;
    this.handle(lane, nested.type, nested.payload, time, event);
  }
}
