import { assertNever } from '../../../util/assert-never.js';
import type { EventPayloads, WireEvent } from '../../../wire/events.js';
import type { WireMessage } from '../../../wire/message.js';
import { WireParseError, wireMessageFromJSON } from '../../../wire/parse.js';
import type { ApprovalRequest, QuestionRequest } from '../../../wire/requests.js';
import { userInputText } from '../../../wire/user-input-text.js';
import { isRecord, rewindLabel, shorten, toolLabel } from './labels.js';
import { type LaneState, newLaneState, noteOutput, type OpenStep, openStepOf } from './lane-state.js';
import { LineProblems, streamedPartTime } from './line-problems.js';
import { summarise } from './model-summary.js';
import { TimelineRecorder } from './timeline-recorder.js';
import type { VisLane, VisModel, VisStep, VisTurn } from './vis-model.js';

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
   * Reads one line of wire.jsonl (`skipped`: why it was too long to read). Returns whether it counts
   * as an event (every non-empty line after the header does, readable or not, skipped or not), so a
   * caller can keep the raw lines with the same indices.
   */
  addLine(line: string, skipped?: string): boolean {
    this.lineNumber++;
    const text = line.trim();
    if (text === '' && skipped === undefined) return false;
    this.problems.flush();
    if (skipped !== undefined) {
      this.problems.add(this.lineNumber, skipped);
      this.eventCount++;
      return true;
    }
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
    // Read through the wire's own codec: the payloads come typed, or the line is a problem.
    let parsed: WireMessage;
    try {
      parsed = wireMessageFromJSON(message);
    } catch (error) {
      if (error instanceof WireParseError && error.message.startsWith('Unknown wire message type'))
        this.unknownTypes[message.type] = (this.unknownTypes[message.type] ?? 0) + 1;
      else this.problems.add(this.lineNumber, error instanceof Error ? error.message : String(error));
      return true;
    }
    this.handle(this.laneStates[0]!, parsed, time, event);
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
    noteOutput(this.laneStates[0]!, time);
    return true;
  }

  /** `terminated`: the file ended with a newline (otherwise its last line may be torn). */
  finish(terminated: boolean): VisModel {
    const tornTail = this.problems.finish(this.lineNumber, terminated);
    if (!Number.isFinite(this.start)) this.start = this.end = 0;
    const main = this.laneStates[0]!;
    const running = main.phase.kind !== 'idle';
    const model: Omit<VisModel, 'summary' | 'slowestTools'> = {
      ...{ sessionId: this.sessionId, title: this.title, protocolVersion: this.protocolVersion },
      ...{ start: this.start, end: this.end, running, tornTail, eventCount: this.eventCount },
      ...{ unknownTypes: this.unknownTypes, problems: this.problems.list, lanes: this.lanes },
      ...{ turns: this.turns, steps: this.steps, spans: this.timeline.spans, markers: this.timeline.markers },
      ...{ context: this.context, compactionTimes: this.compactionTimes },
    };
    const { summary, slowestTools } = summarise(model);
    return { ...model, summary, slowestTools };
  }

  private handle(lane: LaneState, message: WireMessage, time: number, event: number): void {
    switch (message.type) {
      case 'TurnBegin':
        this.closeTurn(lane, time);
        this.openTurn(lane, userInputText(message.payload.user_input), time, event);
        return;
      case 'SteerInput': {
        const text = shorten(userInputText(message.payload.user_input), 60);
        this.timeline.mark(lane.lane, 'steer', time, `steer: ${text}`, event);
        return;
      }
      case 'TurnEnd':
        this.closeTurn(lane, time);
        return;
      case 'StepBegin':
        this.openStep(lane, message.payload.n, time, event);
        return;
      case 'StepInterrupted':
        this.timeline.mark(lane.lane, 'interrupt', time, 'step interrupted', event);
        this.closeStep(lane, time);
        return;
      case 'StepRetry':
        this.retry(lane, message.payload, time, event);
        return;
      case 'StatusUpdate':
        this.status(lane, message.payload, time);
        return;
      case 'ContentPart':
      case 'ToolCallPart':
        noteOutput(lane, time);
        return;
      case 'ToolCall':
        this.toolCall(lane, message.payload, time, event);
        return;
      case 'ToolResult':
        this.toolResult(lane, message.payload, time, event);
        return;
      case 'ApprovalRequest':
      case 'QuestionRequest':
        this.openWait(lane, message, time, event);
        return;
      case 'ApprovalResponse':
        this.closeWait(lane, lane.waits.get(message.payload.request_id), time, message.payload.response);
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
        this.subagentEvent(lane, message.payload, time, event);
        return;
      case 'RewindDone':
        this.timeline.mark(lane.lane, 'rewind', time, rewindLabel(message.payload), event);
        return;
      case 'ToolOutput': // live output, never recorded in wire.jsonl
      case 'GoalUpdated':
      case 'ScheduleFired':
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
      default:
        assertNever(message, 'wire message type');
    }
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
    lane.phase = { kind: 'in-turn', turn: { index: this.turns.length, span } };
    this.turns.push({ lane: lane.lane, start: time, end: null, input: shorten(input, 200), steps: 0, event });
  }

  private closeTurn(lane: LaneState, time: number): void {
    this.closeStep(lane, time);
    // Nothing waits for the user past the end of its turn (a question's answer is not recorded).
    for (const span of lane.waits.values()) this.timeline.close(span, time);
    for (const span of lane.waitsByToolCall.values()) this.timeline.close(span, time);
    lane.waits.clear();
    lane.waitsByToolCall.clear();
    if (lane.phase.kind === 'idle') return;
    const { turn } = lane.phase;
    this.turns[turn.index]!.end = time;
    this.timeline.close(turn.span, time);
    lane.phase = { kind: 'idle' };
  }

  private openStep(lane: LaneState, n: number, time: number, event: number): void {
    this.closeStep(lane, time);
    if (lane.phase.kind === 'idle') this.openTurn(lane, '(no TurnBegin)', time, event);
    if (lane.phase.kind !== 'in-turn') return; // closeStep and openTurn leave the lane in a turn
    const { turn } = lane.phase;
    this.turns[turn.index]!.steps++;
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
    const span = this.timeline.open('step', lane.lane, time, `step ${n}`, event, index);
    const model = this.timeline.open('model', lane.lane, time, 'model call', event, index);
    lane.phase = { kind: 'in-step', turn, step: { index, span, model, lastOutput: null } };
  }

  private closeStep(lane: LaneState, time: number): void {
    for (const span of lane.tools.values()) this.timeline.close(span, time);
    lane.tools.clear();
    if (lane.phase.kind !== 'in-step') return;
    const { turn, step } = lane.phase;
    this.closeModel(step, step.lastOutput ?? time);
    this.steps[step.index]!.end = time;
    this.timeline.close(step.span, time);
    lane.phase = { kind: 'in-turn', turn };
  }

  private closeModel(step: OpenStep, time: number): void {
    if (step.model === null) return;
    const span = this.timeline.spans[step.model]!;
    span.end = Math.max(span.start, time);
    step.model = null;
  }

  private retry(lane: LaneState, p: EventPayloads['StepRetry'], time: number, event: number): void {
    const status = typeof p.status_code === 'number' ? ` ${p.status_code}` : '';
    const label = `retry ${p.next_attempt}/${p.max_attempts}: ${p.error_type}${status}`;
    this.timeline.mark(lane.lane, 'retry', time, shorten(label), event);
    const step = openStepOf(lane);
    if (!step) return;
    if (step.model !== null) this.timeline.spans[step.model]!.isError = true;
    this.closeModel(step, time);
    this.steps[step.index]!.retries++;
    const wait = Math.max(p.wait_s, 0);
    step.model = this.timeline.open('model', lane.lane, time + wait, 'model call (retry)', event, step.index);
    step.lastOutput = null;
  }

  private status(lane: LaneState, p: EventPayloads['StatusUpdate'], time: number): void {
    const usage = p.token_usage;
    const step = openStepOf(lane);
    if (usage && step) {
      const tokens = this.steps[step.index]!.tokens;
      tokens.input += usage.input_other + usage.input_cache_creation;
      tokens.output += usage.output;
      tokens.cached += usage.input_cache_read;
      this.closeModel(step, time);
    }
    if (lane.lane === 0 && typeof p.context_usage === 'number') {
      this.context.push({ time, usage: p.context_usage, tokens: p.context_tokens ?? null });
    }
  }

  private toolCall(lane: LaneState, p: EventPayloads['ToolCall'], time: number, event: number): void {
    noteOutput(lane, time);
    const { id, function: fn } = p;
    const { name } = fn;
    const step = openStepOf(lane)?.index;
    if (step !== undefined) this.steps[step]!.toolCalls++;
    const label = toolLabel(name, fn.arguments);
    lane.tools.set(id, this.timeline.open('tool', lane.lane, time, label, event, step));
    if (name === 'SendDMail') lane.dmailCalls.add(id);
  }

  private toolResult(lane: LaneState, p: EventPayloads['ToolResult'], time: number, event: number): void {
    const id = p.tool_call_id;
    const span = lane.tools.get(id);
    const result = p.return_value;
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
    request: ApprovalRequest | QuestionRequest,
    time: number,
    event: number,
  ): void {
    const label =
      request.type === 'ApprovalRequest'
        ? shorten(`approval: ${request.payload.sender} ${request.payload.action}`)
        : 'question to the user';
    const span = this.timeline.open('approval', lane.lane, time, label, event, openStepOf(lane)?.index);
    lane.waits.set(request.payload.id, span);
    lane.waitsByToolCall.set(request.payload.tool_call_id, span);
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

  private subagentEvent(
    parent: LaneState,
    p: EventPayloads['SubagentEvent'],
    time: number,
    event: number,
  ): void {
    const agentId = p.agent_id ?? null;
    const key = `${parent.lane}/${agentId ?? String(p.parent_tool_call_id ?? 'subagent')}`;
    let laneIndex = this.laneByKey.get(key);
    if (laneIndex === undefined) {
      laneIndex = this.lanes.length;
      const type = p.subagent_type ?? 'subagent';
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
    this.handle(lane, p.event satisfies WireEvent, time, event);
  }
}
