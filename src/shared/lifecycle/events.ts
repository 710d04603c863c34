/**
 * One step in a record's history, as the server keeps it and the browser shows it: a transition of its
 * lifecycle, or a capability's step on it (a handover, a task, a print).
 */
export interface RecordEvent {
  id: number;
  kind: 'transition' | 'workflow' | 'task' | 'print' | (string & {});
  name: string;
  fromState: string | null;
  toState: string | null;
  actorName: string | null;
  orgName: string | null;
  at: string | Date;
  details: Record<string, unknown>;
}

/**
 * A step as the history call answers it: with its names in the caller's language, and what the step
 * was given (its required fields: a reason) as the user reads it.
 */
export type ShownEvent = RecordEvent & {
  label?: string;
  fromLabel?: string | null;
  toLabel?: string | null;
  inputs?: { label: string; value: string }[];
};
