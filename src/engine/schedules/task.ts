/**
 * A simulated task and the records its world keeps of tasks: the wakeups they wait on, the events of the trace,
 * and the failures a report lists.
 */

/** One event of a run's trace (and of the panel's timeline). */
export interface TraceEvent {
  /** Virtual time (ms). */
  readonly t: number;
  /** The task: its id and name ("main", "task 2", a name given to spawn). */
  readonly task: string;
  readonly what: string;
}

/** A task of a simulated run: main (the workload itself), or one that sim.spawn started. */
export class Task {
  state: "ready" | "running" | "waiting" | "done" | "failed" = "ready";
  /** What it waits for, while waiting on a primitive. */
  waitingFor: string | undefined;
  /** PCT's priority (higher runs first). */
  priority = 0;
  constructor(
    readonly id: number,
    readonly name: string,
  ) {}
  /** "main", "task 3", or "task 3 (writer)" for a task spawned with a name. */
  get label(): string {
    return this.id === 1 || this.name === `task ${this.id}` ? this.name : `task ${this.id} (${this.name})`;
  }
}

/** A task's permission to run again, at a virtual instant: `resume` continues it. */
export interface Wakeup {
  readonly seq: number;
  readonly at: number;
  readonly task: Task;
  readonly what: string;
  readonly resume: () => void;
  cancelled: boolean;
}

/** A failure the report shows: who failed and how ("task 2 (worker) rejected"), and the error. */
export interface Failure {
  readonly by: string;
  readonly error: unknown;
}
