import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { PlanModeController } from '../runtime.js';
import { newPlanSlug, type PickIndex } from './plan-slug.js';

/** The plan-mode fields of `state.json`, in Kimi CLI's names. */
export interface PlanModeFields {
  plan_mode: boolean;
  /** Identifies one planning session: set on entering plan mode, cleared on leaving it. */
  plan_session_id: string | null;
  /** The plan file's name without `.md`, kept so the same file is found after a restart. */
  plan_slug: string | null;
}

/** How the controller reads and persists its fields (the app backs it with the session's state.json). */
export interface PlanModeStateAccess {
  read(): PlanModeFields;
  write(fields: PlanModeFields): Promise<void>;
}

export interface SessionPlanModeOptions {
  state: PlanModeStateAccess;
  /** Where plan files live: `<kimi-ts home>/plans`. */
  plansDir: string;
  /** Called after every change of the on/off state (e.g. to send a StatusUpdate). */
  onChange?: ((active: boolean) => void) | undefined;
  pickIndex?: PickIndex | undefined;
  newPlanSessionId?: (() => string) | undefined;
}

function newPlanSessionId(): string {
  return randomUUID().replaceAll('-', '');
}

/**
 * A plan file's name as kimi-ts and Kimi CLI make them (heroes and dashes, a session id's start): a
 * plain name in the plans folder. state.json is not only ours to write (a fleet's session store, a
 * shared session folder): a slug with `/` or `..` named a file anywhere, which plan mode then let
 * the model write without asking (a `.md` file of another project, outside a worker's --work-root).
 */
export function isPlainPlanSlug(slug: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/.test(slug);
}

/** The current plan file for these fields (absolute), or null when plan mode is off or has none yet. */
export function planFileOf(fields: PlanModeFields, plansDir: string): string | null {
  return fields.plan_mode && fields.plan_slug && isPlainPlanSlug(fields.plan_slug)
    ? join(plansDir, `${fields.plan_slug}.md`)
    : null;
}

/** Where plan files are kept under kimi-ts's home folder. */
export function plansDirIn(kimiTsHome: string): string {
  return join(kimiTsHome, 'plans');
}

/**
 * Plan mode of one session (reference §1.13): on or off, and while on, the one file the agent may
 * write. The state lives in the session's state.json so it survives a restart. Turning it on from a
 * UI (`/plan`, Shift-Tab, wire `set_plan_mode`) also schedules a full reminder for the next step;
 * EnterPlanMode does not, because its own result already tells the model what plan mode means.
 * Changes run one at a time, in the order they were asked for.
 */
export class SessionPlanMode implements PlanModeController {
  private fields: PlanModeFields;
  private activationReminderDue = false;
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(private readonly options: SessionPlanModeOptions) {
    const saved = options.state.read();
    // A saved name that is not a plain file name is dropped: an active plan mode gets a new one.
    this.fields = {
      ...saved,
      plan_slug: saved.plan_slug && isPlainPlanSlug(saved.plan_slug) ? saved.plan_slug : null,
    };
  }

  /** Opens plan mode as the session left it; an active plan mode without a plan file name gets one. */
  static async open(options: SessionPlanModeOptions): Promise<SessionPlanMode> {
    const planMode = new SessionPlanMode(options);
    if (planMode.fields.plan_mode) await planMode.serialized(() => planMode.ensurePlanFile());
    return planMode;
  }

  isActive(): boolean {
    return this.fields.plan_mode;
  }

  planFilePath(): string | null {
    return planFileOf(this.fields, this.options.plansDir);
  }

  /** Turns plan mode on (from the EnterPlanMode tool); returns the plan file path. */
  enter(): Promise<string> {
    return this.serialized(() => this.switchTo(true, 'tool')).then(() => this.planFilePath()!);
  }

  exit(): Promise<void> {
    return this.serialized(() => this.switchTo(false, 'tool'));
  }

  /** Sets plan mode from a UI; turning it on schedules the activation reminder. Returns the new state. */
  setFromUser(enabled: boolean): Promise<boolean> {
    return this.serialized(() => this.switchTo(enabled, 'user')).then(() => this.fields.plan_mode);
  }

  /** Asks for the activation reminder again when plan mode is already on (e.g. `--plan` on a resumed session). */
  scheduleActivationReminder(): void {
    if (this.fields.plan_mode) this.activationReminderDue = true;
  }

  /** Whether a UI turned plan mode on since the last step; true only once. */
  consumeActivationReminder(): boolean {
    const due = this.activationReminderDue && this.fields.plan_mode;
    this.activationReminderDue = false;
    return due;
  }

  /** The current plan's text, or null when there is no plan file (yet). */
  async readPlan(): Promise<string | null> {
    const path = this.planFilePath();
    if (!path) return null;
    try {
      return await readFile(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  /** Deletes the current plan file (`/plan clear`). */
  async clearPlan(): Promise<void> {
    const path = this.planFilePath();
    if (path) await rm(path, { force: true });
  }

  private async switchTo(enabled: boolean, source: 'tool' | 'user'): Promise<void> {
    if (enabled === this.fields.plan_mode) return;
    if (enabled) {
      await this.ensurePlanFile();
      this.activationReminderDue = source === 'user';
    } else {
      const off: PlanModeFields = { plan_mode: false, plan_session_id: null, plan_slug: null };
      await this.options.state.write({ ...off });
      this.fields = off;
      this.activationReminderDue = false;
    }
    this.options.onChange?.(this.fields.plan_mode);
  }

  /** Turns plan mode on with a planning-session id and a plan file name (and folder), persisted. */
  private async ensurePlanFile(): Promise<void> {
    const { plan_mode, plan_session_id, plan_slug } = this.fields;
    if (plan_mode && plan_session_id && plan_slug) return;
    const planSessionId =
      this.fields.plan_session_id ?? (this.options.newPlanSessionId ?? newPlanSessionId)();
    await mkdir(this.options.plansDir, { recursive: true });
    const slug =
      this.fields.plan_slug ??
      (await newPlanSlug(this.options.plansDir, planSessionId, this.options.pickIndex));
    const on: PlanModeFields = { plan_mode: true, plan_session_id: planSessionId, plan_slug: slug };
    await this.options.state.write({ ...on });
    this.fields = on;
  }

  private serialized<T>(change: () => Promise<T>): Promise<T> {
    const next = this.queue.then(change, change);
    this.queue = next.catch(() => undefined);
    return next;
  }
}
